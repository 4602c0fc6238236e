/* SPDX-License-Identifier: Apache-2.0 */
/* nlparse: parse the datagrams of an rtnetlink dump (statistics or links); pure, no I/O. */
#include "config.h"

#include "nlparse.h"

#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <string.h>

#include <linux/if.h>
#include <linux/if_link.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>

#define NLPARSE_ERRNO_MAX 4095 /* the largest errno the kernel can report */

/* The attributes of one message: bytes [off, end) of base. */
struct attrs {
	const unsigned char *base;
	size_t off, end;
};

/* Step to the next attribute: its type and payload; 1 if one was found, 0 at the end, -EBADMSG
 * if it does not fit. Copies the header, so the buffer needs no alignment. */
static int attr_next(struct attrs *a, unsigned *type, const unsigned char **data, size_t *len)
{
	if (a->end - a->off < sizeof(struct rtattr))
		return 0; /* padding at most */
	struct rtattr rta;
	memcpy(&rta, a->base + a->off, sizeof rta);
	if (rta.rta_len < sizeof rta || rta.rta_len > a->end - a->off)
		return -EBADMSG;
	*type = rta.rta_type & NLA_TYPE_MASK;
	*data = a->base + a->off + RTA_LENGTH(0);
	*len = rta.rta_len - RTA_LENGTH(0);
	size_t step = RTA_ALIGN(rta.rta_len);
	a->off = step < a->end - a->off ? a->off + step : a->end;
	return 1;
}

/* An ifindex from a message, or 0 if it cannot be one. */
static int valid_ifindex(uint64_t value)
{
	return value > 0 && value <= INT_MAX ? (int)value : 0;
}

/* The first attribute of type want after the head bytes of message msg (len bytes): 1 with its
 * payload in *data and *size, 0 when there is none, or -EBADMSG when the attributes are malformed. */
static int find_attr(const unsigned char *msg, size_t len, size_t head, unsigned want,
		     const unsigned char **data, size_t *size)
{
	struct attrs a = {msg, head < len ? head : len, len};
	unsigned type;
	int rc;
	while ((rc = attr_next(&a, &type, data, size)) > 0)
		if (type == want)
			return 1;
	return rc;
}

/* The u64 at offset off of a statistics structure (unaligned: copied). */
static uint64_t stat_at(const unsigned char *stats, size_t off)
{
	uint64_t value;
	memcpy(&value, stats + off, sizeof value);
	return value;
}

#define STAT(stats, field) stat_at(stats, offsetof(struct rtnl_link_stats64, field))

/* The counters of an rtnl_link_stats64 of which size bytes came (at least up to tx_bytes): the
 * bytes, and the rest when the structure reaches rx_missed_errors, which COUNTER_RX_DROPPED adds
 * in (as /proc/net/dev). Reads only those fields, in place. */
static struct counter_set stats_counters(const unsigned char *stats, size_t size)
{
	struct counter_set c = {.value = {[COUNTER_RX_BYTES] = STAT(stats, rx_bytes),
					  [COUNTER_TX_BYTES] = STAT(stats, tx_bytes)},
				.have = COUNTER_BYTES};
	if (size < offsetof(struct rtnl_link_stats64, rx_missed_errors) + sizeof(uint64_t))
		return c;
	c.value[COUNTER_RX_PACKETS] = STAT(stats, rx_packets);
	c.value[COUNTER_TX_PACKETS] = STAT(stats, tx_packets);
	c.value[COUNTER_RX_ERRORS] = STAT(stats, rx_errors);
	c.value[COUNTER_TX_ERRORS] = STAT(stats, tx_errors);
	c.value[COUNTER_RX_DROPPED] = STAT(stats, rx_dropped) + STAT(stats, rx_missed_errors);
	c.value[COUNTER_TX_DROPPED] = STAT(stats, tx_dropped);
	c.have = COUNTER_ALL;
	return c;
}

/* RTM_NEWSTATS of len bytes at msg: call dump->stats with IFLA_STATS_LINK_64's counters (none
 * if the message has no such attribute); 0 or -EBADMSG. */
static int parse_stats(const struct nlparse_dump *dump, const unsigned char *msg, size_t len)
{
	const size_t head = NLMSG_LENGTH(NLMSG_ALIGN(sizeof(struct if_stats_msg)));
	if (len < NLMSG_LENGTH(sizeof(struct if_stats_msg)))
		return -EBADMSG;
	struct if_stats_msg ifsm;
	memcpy(&ifsm, msg + NLMSG_HDRLEN, sizeof ifsm);
	int ifindex = valid_ifindex(ifsm.ifindex);
	if (ifindex == 0)
		return -EBADMSG;
	const unsigned char *data;
	size_t size;
	int rc = find_attr(msg, len, head, IFLA_STATS_LINK_64, &data, &size);
	if (rc <= 0)
		return rc;
	if (size < offsetof(struct rtnl_link_stats64, tx_bytes) + sizeof(uint64_t))
		return -EBADMSG;
	struct counter_set counters = stats_counters(data, size);
	dump->stats(ifindex, &counters, dump->ctx);
	return 0;
}

/* RTM_NEWLINK of len bytes at msg: call dump->link with IFLA_IFNAME (none if absent); 0 or -EBADMSG. */
static int parse_link(const struct nlparse_dump *dump, const unsigned char *msg, size_t len)
{
	const size_t head = NLMSG_LENGTH(NLMSG_ALIGN(sizeof(struct ifinfomsg)));
	if (len < NLMSG_LENGTH(sizeof(struct ifinfomsg)))
		return -EBADMSG;
	struct ifinfomsg ifi;
	memcpy(&ifi, msg + NLMSG_HDRLEN, sizeof ifi);
	int ifindex = ifi.ifi_index > 0 ? ifi.ifi_index : 0;
	if (ifindex == 0)
		return -EBADMSG;
	const unsigned char *data;
	size_t size;
	int rc = find_attr(msg, len, head, IFLA_IFNAME, &data, &size);
	if (rc <= 0)
		return rc;
	char name[IFNAMSIZ];
	const unsigned char *nul = memchr(data, '\0', size < sizeof name ? size : sizeof name);
	if (nul == NULL || nul == data)
		return -EBADMSG; /* unterminated, too long or empty */
	memcpy(name, data, (size_t)(nul - data) + 1);
	dump->link(ifindex, name, dump->ctx);
	return 0;
}

/* The error an NLMSG_DONE or NLMSG_ERROR message of len bytes carries: NLPARSE_DONE for a
 * clean end, -errno, or -EBADMSG when truncated or out of range (an ACK, error 0, does not
 * end a dump). */
static int parse_end(uint16_t type, const unsigned char *msg, size_t len)
{
	int error;
	size_t need = type == NLMSG_ERROR ? sizeof(struct nlmsgerr) : sizeof error;
	if (len < NLMSG_LENGTH(need))
		return -EBADMSG;
	memcpy(&error, msg + NLMSG_HDRLEN, sizeof error); /* nlmsgerr starts with it */
	if (error < 0)
		return error >= -NLPARSE_ERRNO_MAX ? error : -EBADMSG; /* no errno is that large */
	return type == NLMSG_DONE ? NLPARSE_DONE : -EBADMSG;
}

/* Act on one message of ours; NLPARSE_DONE, NLPARSE_MORE or -errno. */
static int handle(struct nlparse_dump *dump, const struct nlmsghdr *hdr, const unsigned char *msg)
{
	if (hdr->nlmsg_flags & NLM_F_DUMP_INTR)
		dump->interrupted = true;
	switch (hdr->nlmsg_type) {
	case NLMSG_DONE:
	case NLMSG_ERROR:
		return parse_end(hdr->nlmsg_type, msg, hdr->nlmsg_len);
	case RTM_NEWSTATS:
		return dump->stats != NULL ? parse_stats(dump, msg, hdr->nlmsg_len) : NLPARSE_MORE;
	case RTM_NEWLINK:
		return dump->link != NULL ? parse_link(dump, msg, hdr->nlmsg_len) : NLPARSE_MORE;
	default:
		return NLPARSE_MORE; /* NLMSG_NOOP and anything else: nothing to use */
	}
}

int nlparse_walk(struct nlparse_dump *dump, const void *buf, size_t len, uint32_t sender_pid)
{
	const unsigned char *base = buf;
	if (sender_pid != 0) {
		dump->stale++; /* not from the kernel: never ours */
		return NLPARSE_MORE;
	}
	for (size_t off = 0; off < len;) {
		struct nlmsghdr hdr;
		if (len - off < sizeof hdr)
			return -EBADMSG;
		memcpy(&hdr, base + off, sizeof hdr);
		if (hdr.nlmsg_len < sizeof hdr || hdr.nlmsg_len > len - off)
			return -EBADMSG;
		const unsigned char *msg = base + off;
		size_t step = NLMSG_ALIGN(hdr.nlmsg_len);
		off = step < len - off ? off + step : len;
		if (hdr.nlmsg_pid != dump->portid || hdr.nlmsg_seq != dump->seq) {
			dump->stale++; /* the rest of an abandoned earlier dump */
			continue;
		}
		int rc = handle(dump, &hdr, msg);
		if (rc != NLPARSE_MORE)
			return rc;
	}
	return NLPARSE_MORE;
}
