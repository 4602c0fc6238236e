/* SPDX-License-Identifier: Apache-2.0 */
/* test_netlink: the rtnetlink reply parser on crafted datagrams, and the socket's drain. */
#include "config.h"

#ifdef KN_HAVE_NETLINK

#include "netlink.h"
#include "nlparse.h"
#include "testutil.h"

#include <check.h>
#include <errno.h>
#include <net/if.h>
#include <sched.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>

#include <linux/if_link.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>

#define PORTID 4242u
#define SEQ 7u

/* A datagram being crafted: aligned storage, a length, and where the open message starts. */
static union {
	unsigned char bytes[8192];
	struct nlmsghdr align;
} dgram;
static size_t dlen, msg_start;

/* What the callbacks saw. */
static struct seen {
	int stats, links;
	int ifindex[16];
	struct counter_set counters[16];
	char names[16][IFNAMSIZ];
} seen;

/* Stats callback: record the call. */
static void on_stats(int ifindex, const struct counter_set *counters, void *ctx)
{
	ck_assert_ptr_eq(ctx, &seen);
	if (seen.stats < 16) {
		seen.ifindex[seen.stats] = ifindex;
		seen.counters[seen.stats] = *counters;
	}
	seen.stats++;
}

/* Link callback: record the call. */
static void on_link(int ifindex, const char *name, void *ctx)
{
	ck_assert_ptr_eq(ctx, &seen);
	ck_assert_uint_lt(strlen(name), IFNAMSIZ);
	if (seen.links < 16) {
		seen.ifindex[seen.links] = ifindex;
		strcpy(seen.names[seen.links], name);
	}
	seen.links++;
}

/* Fixture: an empty datagram, nothing seen. */
static void reset(void)
{
	memset(&dgram, 0, sizeof dgram);
	memset(&seen, 0, sizeof seen);
	dlen = msg_start = 0;
}

/* Append len bytes of data (zeros if NULL) at the end, then pad to 4 bytes. */
static void put(const void *data, size_t len)
{
	ck_assert_uint_le(dlen + NLMSG_ALIGN(len), sizeof dgram.bytes);
	if (data != NULL)
		memcpy(dgram.bytes + dlen, data, len);
	dlen += NLMSG_ALIGN(len);
}

/* Start a message of type with flags, seq and portid; finish it with end_msg(). */
static void begin_msg_as(uint16_t type, uint16_t flags, uint32_t seq, uint32_t portid)
{
	msg_start = dlen;
	struct nlmsghdr hdr = {.nlmsg_type = type, .nlmsg_flags = flags, .nlmsg_seq = seq, .nlmsg_pid = portid};
	put(&hdr, sizeof hdr);
}

/* Start a message of ours. */
static void begin_msg(uint16_t type, uint16_t flags)
{
	begin_msg_as(type, flags, SEQ, PORTID);
}

/* Set the open message's nlmsg_len to what was appended since begin_msg() (or to len if nonzero). */
static void end_msg_len(size_t len)
{
	uint32_t total = (uint32_t)(len ? len : dlen - msg_start);
	memcpy(dgram.bytes + msg_start + offsetof(struct nlmsghdr, nlmsg_len), &total, sizeof total);
}

/* Close the open message. */
static void end_msg(void)
{
	end_msg_len(0);
}

/* Append one attribute of type with len bytes of data. */
static void put_attr(uint16_t type, const void *data, size_t len)
{
	struct rtattr rta = {.rta_len = (unsigned short)RTA_LENGTH(len), .rta_type = type};
	size_t at = dlen;
	put(&rta, sizeof rta);
	dlen = at + RTA_LENGTH(0);
	put(data, len);
}

/* Append an RTM_NEWSTATS message for ifindex with the given byte counters. */
static void put_stats(uint16_t flags, uint32_t ifindex, uint64_t rx, uint64_t tx)
{
	begin_msg(RTM_NEWSTATS, flags | NLM_F_MULTI);
	struct if_stats_msg ifsm = {.ifindex = ifindex, .filter_mask = IFLA_STATS_FILTER_BIT(IFLA_STATS_LINK_64)};
	put(&ifsm, sizeof ifsm);
	struct rtnl_link_stats64 stats = {.rx_bytes = rx, .tx_bytes = tx, .rx_packets = 1};
	put_attr(IFLA_STATS_LINK_64, &stats, sizeof stats);
	end_msg();
}

/* Append an RTM_NEWLINK message for ifindex named with nlen bytes of name (no NUL added). */
static void put_link_raw(int ifindex, const char *name, size_t nlen)
{
	begin_msg(RTM_NEWLINK, NLM_F_MULTI);
	struct ifinfomsg ifi = {.ifi_index = ifindex};
	put(&ifi, sizeof ifi);
	uint32_t mtu = 1500;
	put_attr(IFLA_MTU, &mtu, sizeof mtu);
	put_attr(IFLA_IFNAME, name, nlen);
	end_msg();
}

/* Append an NLMSG_DONE carrying error (a whole int when full, else only its header). */
static void put_done(int error, bool full)
{
	begin_msg(NLMSG_DONE, NLM_F_MULTI);
	if (full)
		put(&error, sizeof error);
	end_msg();
}

/* Walk the crafted datagram as the kernel's (sender 0); the walk's result. */
static int walk_as(struct nlparse_dump *dump, uint32_t sender)
{
	dump->portid = PORTID;
	dump->seq = SEQ;
	return nlparse_walk(dump, dgram.bytes, dlen, sender);
}

/* Walk it with both callbacks set. */
static int walk(struct nlparse_dump *dump)
{
	*dump = (struct nlparse_dump){.stats = on_stats, .link = on_link, .ctx = &seen};
	return walk_as(dump, 0);
}

START_TEST(stats_then_done)
{
	struct nlparse_dump dump;
	put_stats(0, 2, 100, 200);
	put_stats(0, 3, UINT64_MAX, 0);
	ck_assert_int_eq(walk(&dump), NLPARSE_MORE); /* no DONE yet: more datagrams follow */
	ck_assert_int_eq(seen.stats, 2);
	ck_assert_int_eq(seen.ifindex[0], 2);
	ck_assert_uint_eq(seen.counters[0].value[COUNTER_RX_BYTES], 100);
	ck_assert_uint_eq(seen.counters[0].value[COUNTER_TX_BYTES], 200);
	ck_assert_int_eq(seen.ifindex[1], 3);
	ck_assert_uint_eq(seen.counters[1].value[COUNTER_RX_BYTES], UINT64_MAX);
	reset();
	put_done(0, true);
	ck_assert_int_eq(walk(&dump), NLPARSE_DONE);
	ck_assert(!dump.interrupted);
	ck_assert_uint_eq(dump.stale, 0);
}
END_TEST

/* Append an RTM_NEWSTATS message for ifindex with the first size bytes of stats. */
static void put_stats64(uint32_t ifindex, const struct rtnl_link_stats64 *stats, size_t size)
{
	begin_msg(RTM_NEWSTATS, NLM_F_MULTI);
	struct if_stats_msg ifsm = {.ifindex = ifindex, .filter_mask = IFLA_STATS_FILTER_BIT(IFLA_STATS_LINK_64)};
	put(&ifsm, sizeof ifsm);
	put_attr(IFLA_STATS_LINK_64, stats, size);
	end_msg();
}

START_TEST(stats_every_counter)
{
	struct nlparse_dump dump;
	const struct rtnl_link_stats64 stats = {
		.rx_packets = 11, .tx_packets = 12, .rx_bytes = 13, .tx_bytes = 14, .rx_errors = 15,
		.tx_errors = 16, .rx_dropped = 17, .tx_dropped = 18, .rx_missed_errors = 1000,
	};
	put_stats64(2, &stats, sizeof stats);
	/* a structure that ends before rx_missed_errors: the bytes alone */
	put_stats64(3, &stats, offsetof(struct rtnl_link_stats64, rx_missed_errors));
	ck_assert_int_eq(walk(&dump), NLPARSE_MORE);
	ck_assert_int_eq(seen.stats, 2);
	const struct counter_set *c = &seen.counters[0];
	ck_assert_uint_eq(c->have, COUNTER_ALL);
	ck_assert_uint_eq(c->value[COUNTER_RX_BYTES], 13);
	ck_assert_uint_eq(c->value[COUNTER_TX_BYTES], 14);
	ck_assert_uint_eq(c->value[COUNTER_RX_PACKETS], 11);
	ck_assert_uint_eq(c->value[COUNTER_TX_PACKETS], 12);
	ck_assert_uint_eq(c->value[COUNTER_RX_ERRORS], 15);
	ck_assert_uint_eq(c->value[COUNTER_TX_ERRORS], 16);
	ck_assert_uint_eq(c->value[COUNTER_RX_DROPPED], 1017); /* rx_dropped + rx_missed_errors */
	ck_assert_uint_eq(c->value[COUNTER_TX_DROPPED], 18);
	ck_assert_uint_eq(seen.counters[1].have, COUNTER_BYTES);
	ck_assert_uint_eq(seen.counters[1].value[COUNTER_TX_BYTES], 14);
}
END_TEST

START_TEST(links_named)
{
	struct nlparse_dump dump;
	put_link_raw(1, "lo", 3);
	put_link_raw(7, "abcdefghijklmno", 16); /* 15 characters and the NUL: the longest */
	put_done(0, true);
	ck_assert_int_eq(walk(&dump), NLPARSE_DONE);
	ck_assert_int_eq(seen.links, 2);
	ck_assert_int_eq(seen.ifindex[0], 1);
	ck_assert_str_eq(seen.names[0], "lo");
	ck_assert_int_eq(seen.ifindex[1], 7);
	ck_assert_str_eq(seen.names[1], "abcdefghijklmno");
	ck_assert_int_eq(seen.stats, 0);
}
END_TEST

START_TEST(bad_link_names)
{
	struct nlparse_dump dump;
	put_link_raw(3, "eth0", 4); /* no NUL */
	ck_assert_int_eq(walk(&dump), -EBADMSG);
	reset();
	put_link_raw(3, "abcdefghijklmnop", 17); /* 16 characters: longer than IFNAMSIZ allows */
	ck_assert_int_eq(walk(&dump), -EBADMSG);
	reset();
	put_link_raw(3, "", 1);
	ck_assert_int_eq(walk(&dump), -EBADMSG);
	reset();
	put_link_raw(0, "eth0", 5); /* no interface has ifindex 0 */
	ck_assert_int_eq(walk(&dump), -EBADMSG);
	ck_assert_int_eq(seen.links, 0);
}
END_TEST

START_TEST(other_requests_skipped)
{
	struct nlparse_dump dump;
	begin_msg_as(RTM_NEWSTATS, NLM_F_MULTI, SEQ - 1, PORTID); /* the rest of an earlier dump */
	struct if_stats_msg ifsm = {.ifindex = 9};
	put(&ifsm, sizeof ifsm);
	end_msg();
	begin_msg_as(NLMSG_DONE, NLM_F_MULTI, SEQ, PORTID + 1); /* another socket's */
	put(&(int){0}, sizeof(int));
	end_msg();
	put_stats(0, 4, 1, 2);
	ck_assert_int_eq(walk(&dump), NLPARSE_MORE);
	ck_assert_int_eq(seen.stats, 1);
	ck_assert_int_eq(seen.ifindex[0], 4);
	ck_assert_uint_eq(dump.stale, 2);
}
END_TEST

START_TEST(sender_must_be_the_kernel)
{
	struct nlparse_dump dump = {.stats = on_stats, .ctx = &seen};
	put_stats(0, 2, 1, 1);
	put_done(0, true);
	ck_assert_int_eq(walk_as(&dump, 1234), NLPARSE_MORE); /* a process's datagram: ignored */
	ck_assert_int_eq(seen.stats, 0);
	ck_assert_int_eq(walk_as(&dump, 0), NLPARSE_DONE);
	ck_assert_int_eq(seen.stats, 1);
}
END_TEST

START_TEST(dump_interrupted)
{
	struct nlparse_dump dump;
	put_stats(0, 2, 1, 1);
	put_stats(NLM_F_DUMP_INTR, 3, 1, 1);
	ck_assert_int_eq(walk(&dump), NLPARSE_MORE);
	ck_assert(dump.interrupted);
	ck_assert_int_eq(seen.stats, 2); /* what it has is still usable */
	reset();
	begin_msg(NLMSG_DONE, NLM_F_MULTI | NLM_F_DUMP_INTR); /* the flag on DONE alone counts too */
	put(&(int){0}, sizeof(int));
	end_msg();
	ck_assert_int_eq(walk(&dump), NLPARSE_DONE);
	ck_assert(dump.interrupted);
}
END_TEST

START_TEST(error_replies)
{
	struct nlparse_dump dump;
	begin_msg(NLMSG_ERROR, 0);
	struct nlmsgerr err = {.error = -EPERM};
	put(&err, sizeof err);
	end_msg();
	ck_assert_int_eq(walk(&dump), -EPERM);
	reset();
	begin_msg(NLMSG_ERROR, 0);
	err.error = 0; /* an ACK does not answer a dump */
	put(&err, sizeof err);
	end_msg();
	ck_assert_int_eq(walk(&dump), -EBADMSG);
	reset();
	put_done(-EMSGSIZE, true);
	ck_assert_int_eq(walk(&dump), -EMSGSIZE);
	reset();
	put_done(-65703, true); /* no errno: found by fuzz_netlink */
	ck_assert_int_eq(walk(&dump), -EBADMSG);
}
END_TEST

START_TEST(truncated_end_messages)
{
	struct nlparse_dump dump;
	begin_msg(NLMSG_ERROR, 0);
	put(&(int){0}, sizeof(int)); /* the error code but not the request header after it */
	end_msg();
	ck_assert_int_eq(walk(&dump), -EBADMSG);
	reset();
	begin_msg(NLMSG_ERROR, 0); /* no payload at all */
	end_msg();
	ck_assert_int_eq(walk(&dump), -EBADMSG);
	reset();
	put_done(0, false);
	ck_assert_int_eq(walk(&dump), -EBADMSG);
}
END_TEST

START_TEST(malformed_headers)
{
	struct nlparse_dump dump;
	put_stats(0, 2, 1, 1);
	end_msg_len(dlen - msg_start + 4); /* claims more than the datagram holds */
	ck_assert_int_eq(walk(&dump), -EBADMSG);
	reset();
	put_stats(0, 2, 1, 1);
	end_msg_len(8); /* shorter than its own header */
	ck_assert_int_eq(walk(&dump), -EBADMSG);
	reset();
	put_stats(0, 2, 1, 1);
	put(NULL, 8); /* a remnant too short for a header */
	ck_assert_int_eq(walk(&dump), -EBADMSG);
	ck_assert_int_eq(seen.stats, 1);
	reset();
	begin_msg(RTM_NEWSTATS, NLM_F_MULTI); /* too short for its if_stats_msg */
	put(NULL, 4);
	end_msg();
	ck_assert_int_eq(walk(&dump), -EBADMSG);
}
END_TEST

START_TEST(malformed_attributes)
{
	struct nlparse_dump dump;
	put_stats(0, 2, 1, 1);
	uint16_t huge = 0xfff0; /* the attribute's length runs past the message */
	memcpy(dgram.bytes + msg_start + NLMSG_LENGTH(sizeof(struct if_stats_msg)), &huge, sizeof huge);
	ck_assert_int_eq(walk(&dump), -EBADMSG);
	reset();
	begin_msg(RTM_NEWSTATS, NLM_F_MULTI);
	struct if_stats_msg ifsm = {.ifindex = 2};
	put(&ifsm, sizeof ifsm);
	uint64_t only_rx[3] = {0};
	put_attr(IFLA_STATS_LINK_64, only_rx, sizeof only_rx); /* ends before tx_bytes */
	end_msg();
	ck_assert_int_eq(walk(&dump), -EBADMSG);
	reset();
	begin_msg(RTM_NEWSTATS, NLM_F_MULTI); /* no IFLA_STATS_LINK_64: nothing to report */
	put(&ifsm, sizeof ifsm);
	put_attr(IFLA_STATS_LINK_XSTATS, only_rx, sizeof only_rx);
	end_msg();
	put_done(0, true);
	ck_assert_int_eq(walk(&dump), NLPARSE_DONE);
	ck_assert_int_eq(seen.stats, 0);
}
END_TEST

START_TEST(unaligned_buffer)
{
	static unsigned char shifted[sizeof dgram.bytes + 1];
	put_stats(0, 5, 10, 20);
	put_done(0, true);
	memcpy(shifted + 1, dgram.bytes, dlen);
	struct nlparse_dump dump = {.stats = on_stats, .ctx = &seen, .portid = PORTID, .seq = SEQ};
	ck_assert_int_eq(nlparse_walk(&dump, shifted + 1, dlen, 0), NLPARSE_DONE);
	ck_assert_int_eq(seen.stats, 1);
	ck_assert_uint_eq(seen.counters[0].value[COUNTER_TX_BYTES], 20);
}
END_TEST

START_TEST(abandoned_dump_drained)
{
	(void)unshare(CLONE_NEWNET); /* lo alone when allowed: a small, steady dump */
	struct netlink_stats nl;
	ck_assert_int_eq(netlink_open(&nl), 0);
	/* A dump left unread, as a timeout or a malformed message leaves one: the kernel keeps it
	 * running and refuses the next dump (EBUSY) until its leftovers are read. */
	struct {
		struct nlmsghdr hdr;
		struct ifinfomsg ifi;
	} req = {{.nlmsg_len = sizeof req, .nlmsg_type = RTM_GETLINK, .nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP,
		  .nlmsg_seq = ++nl.seq},
		 {.ifi_family = AF_UNSPEC}};
	struct sockaddr_nl kernel = {.nl_family = AF_NETLINK};
	ck_assert_int_eq(sendto(nl.fd, &req, sizeof req, 0, (struct sockaddr *)&kernel, sizeof kernel),
			 (ssize_t)sizeof req);
	nl.dirty = true;
	ck_assert_int_eq(netlink_dump(&nl, on_stats, &seen), 0);
	ck_assert_int_ge(seen.stats, 1); /* lo at least */
	ck_assert(!nl.dirty);
	ck_assert_int_eq(netlink_links(&nl, on_link, &seen), 0);
	ck_assert_int_ge(seen.links, 1);
	netlink_close(&nl);
}
END_TEST

/* Add fn as a tcase of its own, on an empty datagram. */
static void add(Suite *s, const char *name, const TTest *fn)
{
	testutil_add(s, name, fn, reset, NULL);
}

/* Add a case that needs the kernel's rtnetlink statistics. */
static void add_rtnetlink(Suite *s, const char *name, const TTest *fn)
{
	testutil_add_tagged(s, name, fn, reset, NULL, TESTUTIL_TAG_RTNETLINK);
}

/* The netlink suite. */
static Suite *netlink_suite(void)
{
	Suite *s = suite_create("netlink");
	add(s, "stats_then_done", stats_then_done);
	add(s, "stats_every_counter", stats_every_counter);
	add(s, "links_named", links_named);
	add(s, "bad_link_names", bad_link_names);
	add(s, "other_requests_skipped", other_requests_skipped);
	add(s, "sender_must_be_the_kernel", sender_must_be_the_kernel);
	add(s, "dump_interrupted", dump_interrupted);
	add(s, "error_replies", error_replies);
	add(s, "truncated_end_messages", truncated_end_messages);
	add(s, "malformed_headers", malformed_headers);
	add(s, "malformed_attributes", malformed_attributes);
	add(s, "unaligned_buffer", unaligned_buffer);
	add_rtnetlink(s, "abandoned_dump_drained", abandoned_dump_drained);
	return s;
}

int main(void)
{
	return testutil_run(netlink_suite());
}

#else /* !KN_HAVE_NETLINK */

#include <stdio.h>

/* A build without the netlink source: say so as a TAP skip of the whole program. */
int main(void)
{
	puts("1..0 # SKIP this build has no netlink source (configure --disable-netlink or no Linux headers)");
	return 0;
}

#endif /* KN_HAVE_NETLINK */
