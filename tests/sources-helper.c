/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sources-helper: the C half of tests/sources.test, run inside a network namespace.
 *
 *   sources-helper send IFACE COUNT SIZE   send COUNT Ethernet frames of SIZE bytes out of IFACE
 *                                          (AF_PACKET, local experimental ethertype: no IP at all)
 *   sources-helper read SOURCE IFACE        print IFACE's "rx tx" byte counters read by the
 *                                          monitor with SOURCE (sysfs, netlink or procfs)
 *   sources-helper counters SOURCE IFACE    print all of IFACE's counters, in enum counter_kind order
 *                                          (bytes, packets, errors, drops; rx then tx each)
 *   sources-helper compare MODE REGEX...    read every interface matching a REGEX with every
 *                                          source, sysfs / netlink / procfs / sysfs, and check that
 *                                          every counter's (bytes, packets, errors, drops) netlink
 *                                          and procfs values lie between the two sysfs
 *                                          ones; MODE "exact" also needs an attempt where nothing
 *                                          moved and all three agree; "moving" needs a counter
 *                                          that moved
 *
 * Exit status 0 when the check holds, 1 when it does not (with the reason on stderr), 2 on misuse.
 */
#include "config.h"

#include "iface.h"
#include "monitor.h"

#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <linux/if_packet.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define HELPER_ETHERTYPE 0x88B5 /* IEEE local experimental: nobody handles it */
#define HELPER_FRAME_MAX 1514
#define HELPER_ATTEMPTS 500           /* compare attempts, HELPER_PAUSE_NS apart: 5 s at most */
#define HELPER_PAUSE_NS 10000000L
#define HELPER_YIELD_NS 200000L       /* within an attempt, before the closing sysfs read */

/* Parse a whole positive number for the send command; 0 if invalid. */
static unsigned long parse_count(const char *text)
{
	char *end = NULL;
	errno = 0;
	unsigned long value = strtoul(text, &end, 10);
	return (errno != 0 || *end != '\0') ? 0 : value;
}

/* Send count broadcast frames of size bytes out of ifname; the exit status. */
static int cmd_send(const char *ifname, unsigned long count, unsigned long size)
{
	unsigned char frame[HELPER_FRAME_MAX] = {0};
	struct sockaddr_ll addr = {.sll_family = AF_PACKET, .sll_ifindex = (int)if_nametoindex(ifname),
				   .sll_halen = ETH_ALEN};
	if (addr.sll_ifindex == 0 || size < ETH_ZLEN || size > sizeof frame || count == 0) {
		fprintf(stderr, "sources-helper: bad send arguments\n");
		return 2;
	}
	int fd = socket(AF_PACKET, SOCK_RAW, 0);
	if (fd < 0) {
		perror("sources-helper: socket(AF_PACKET)");
		return 1;
	}
	memset(frame, 0xff, ETH_ALEN);                       /* broadcast destination */
	memcpy(frame + ETH_ALEN, "\x02\0\0\0\0\x01", ETH_ALEN); /* locally administered source */
	frame[12] = HELPER_ETHERTYPE >> 8;
	frame[13] = HELPER_ETHERTYPE & 0xff;
	int status = 0;
	for (unsigned long sent = 0; sent < count;) {
		if (sendto(fd, frame, size, 0, (struct sockaddr *)&addr, sizeof addr) == (ssize_t)size) {
			sent++;
		} else if (errno != ENOBUFS && errno != EAGAIN) { /* a full queue: send that frame again */
			perror("sources-helper: sendto");
			status = 1;
			break;
		}
	}
	close(fd);
	return status;
}

/* Start a monitor of the interfaces matching the regexes, reading with kind; 0 or -1. */
static int open_monitor(struct monitor *mon, struct iface_selector *sel, enum source_kind kind)
{
	char err[IFACE_ERR_MAX];
	if (monitor_init(mon, "/sys", sel, err) != 0) {
		fprintf(stderr, "sources-helper: %s\n", err);
		return -1;
	}
	monitor_set_counters(mon, COUNTER_ALL, false);
	int rc = monitor_use_source(mon, kind, false, NULL);
	if (rc != 0)
		fprintf(stderr, "sources-helper: source refused: %s\n", strerror(-rc));
	if (rc != 0 || monitor_rescan(mon) != 0 || mon->count == 0) {
		fprintf(stderr, "sources-helper: no interface to read\n");
		monitor_free(mon);
		return -1;
	}
	return 0;
}

/* The source named name (sysfs when it is none of the others). */
static enum source_kind source_of(const char *name)
{
	return strcmp(name, "netlink") == 0 ? SOURCE_NETLINK : strcmp(name, "procfs") == 0 ? SOURCE_PROCFS : SOURCE_SYSFS;
}

/* The counters' names, for messages. */
static const char *const counter_names[COUNTER_KINDS] = {
	"rx_bytes", "tx_bytes", "rx_packets", "tx_packets", "rx_errors", "tx_errors",
	"rx_dropped+rx_missed_errors", "tx_dropped",
};

/* Print the byte counters of the one interface matching regex, read with source; the exit status. */
static int cmd_read(const char *source, const char *regex)
{
	struct iface_selector sel;
	struct monitor mon;
	char err[IFACE_ERR_MAX];
	if (iface_selector_init(&sel, &regex, 1, err) != 0)
		return 2;
	int status = 1;
	if (open_monitor(&mon, &sel, source_of(source)) == 0) {
		monitor_tick(&mon, 0.0);
		const struct monitored_iface *entry = &mon.ifaces[0];
		if (mon.count == 1 && entry->have_prev) {
			printf("%" PRIu64 " %" PRIu64 "\n", entry->prev.value[COUNTER_RX_BYTES], entry->prev.value[COUNTER_TX_BYTES]);
			status = 0;
		} else {
			fprintf(stderr, "sources-helper: %zu interfaces, or no reading\n", mon.count);
		}
		monitor_free(&mon);
	}
	iface_selector_free(&sel);
	return status;
}

/* Print the counters (in enum counter_kind order) of the one interface matching regex, read with
 * source; the exit status. */
static int cmd_counters(const char *source, const char *regex)
{
	struct iface_selector sel;
	struct monitor mon;
	char err[IFACE_ERR_MAX];
	if (iface_selector_init(&sel, &regex, 1, err) != 0)
		return 2;
	int status = 1;
	if (open_monitor(&mon, &sel, source_of(source)) == 0) {
		monitor_tick(&mon, 0.0);
		const struct monitored_iface *entry = &mon.ifaces[0];
		if (mon.count == 1 && entry->have_prev && entry->prev.have == COUNTER_ALL) {
			for (int k = 0; k < COUNTER_KINDS; k++)
				printf("%s%" PRIu64, k ? " " : "", entry->prev.value[k]);
			printf("\n");
			status = 0;
		} else {
			fprintf(stderr, "sources-helper: %zu interfaces, or not every counter read\n", mon.count);
		}
		monitor_free(&mon);
	}
	iface_selector_free(&sel);
	return status;
}

/* Tally of one compare attempt. */
struct tally {
	bool broken; /* a netlink value outside its sysfs bracket, or no reading */
	bool moved;  /* a counter changed between the two sysfs reads */
};

/* Check one counter: sysfs before, netlink, procfs, sysfs after (taken in that order). */
static void check_counter(const char *name, const char *what, uint64_t s1, uint64_t n, uint64_t p,
			  uint64_t s2, struct tally *t)
{
	if (s1 != s2)
		t->moved = true;
	if (s1 <= n && n <= p && p <= s2)
		return;
	t->broken = true;
	fprintf(stderr,
		"sources-helper: %s %s: sysfs %" PRIu64 ", netlink %" PRIu64 ", procfs %" PRIu64 ", sysfs %" PRIu64 "\n",
		name, what, s1, n, p, s2);
}

/* Whether the two monitors read the same interface in slot i, both with a reading. */
static bool same_reading(const struct monitor *a, const struct monitor *b, size_t i)
{
	const struct monitored_iface *x = &a->ifaces[i], *y = &b->ifaces[i];
	return x->have_prev && y->have_prev && x->prev.have == COUNTER_ALL && y->prev.have == COUNTER_ALL &&
	       strcmp(x->name, y->name) == 0;
}

/* One attempt: tick sysfs, netlink, procfs, sysfs, then compare every interface. */
static struct tally compare_once(struct monitor *sys, struct monitor *nl, struct monitor *proc)
{
	struct tally t = {false, false};
	monitor_tick(sys, 0.0);
	struct counter_set *before = calloc(sys->count, sizeof *before);
	for (size_t i = 0; before != NULL && i < sys->count; i++)
		before[i] = sys->ifaces[i].prev;
	monitor_tick(nl, 0.0);
	monitor_tick(proc, 0.0);
	nanosleep(&(struct timespec){.tv_nsec = HELPER_YIELD_NS}, NULL); /* the sender's turn, on one CPU too */
	monitor_tick(sys, 0.0);
	for (size_t i = 0; before != NULL && i < sys->count; i++) {
		const struct monitored_iface *s = &sys->ifaces[i], *n = &nl->ifaces[i], *p = &proc->ifaces[i];
		if (!same_reading(sys, nl, i) || !same_reading(sys, proc, i)) {
			fprintf(stderr, "sources-helper: %s: no reading from one source\n", s->name);
			t.broken = true;
			continue;
		}
		for (int k = 0; k < COUNTER_KINDS; k++)
			check_counter(s->name, counter_names[k], before[i].value[k], n->prev.value[k], p->prev.value[k],
				      s->prev.value[k], &t);
	}
	t.broken |= before == NULL;
	free(before);
	return t;
}

/* Compare the three sources over several attempts; the exit status. */
static int compare_monitors(struct monitor *sys, struct monitor *nl, struct monitor *proc, bool exact)
{
	if (sys->count != nl->count || sys->count != proc->count) {
		fprintf(stderr, "sources-helper: sysfs has %zu interfaces, netlink %zu, procfs %zu\n", sys->count,
			nl->count, proc->count);
		return 1;
	}
	bool moved = false, still = false;
	for (int i = 0; i < HELPER_ATTEMPTS; i++) {
		struct tally t = compare_once(sys, nl, proc);
		if (t.broken)
			return 1;
		moved |= t.moved;
		still |= !t.moved;
		if (exact ? still : moved)
			break;
		nanosleep(&(struct timespec){.tv_nsec = HELPER_PAUSE_NS}, NULL);
	}
	printf("%zu interfaces compared; counters %s\n", sys->count, moved ? "moved" : "still");
	if (exact && !still)
		fprintf(stderr, "sources-helper: the counters never stood still\n");
	if (!exact && !moved)
		fprintf(stderr, "sources-helper: no counter moved: is traffic running?\n");
	return (exact ? still : moved) ? 0 : 1;
}

/* Compare the three sources on every interface matching the regexes; the exit status. */
static int cmd_compare(const char *mode, const char *const *regexes, size_t n)
{
	struct iface_selector sel;
	char err[IFACE_ERR_MAX];
	if (iface_selector_init(&sel, regexes, n, err) != 0)
		return 2;
	struct monitor sys, nl, proc;
	int status = 1;
	if (open_monitor(&sys, &sel, SOURCE_SYSFS) == 0) {
		if (open_monitor(&nl, &sel, SOURCE_NETLINK) == 0) {
			if (open_monitor(&proc, &sel, SOURCE_PROCFS) == 0) {
				status = compare_monitors(&sys, &nl, &proc, strcmp(mode, "exact") == 0);
				monitor_free(&proc);
			}
			monitor_free(&nl);
		}
		monitor_free(&sys);
	}
	iface_selector_free(&sel);
	return status;
}

int main(int argc, char **argv)
{
	if (argc == 5 && strcmp(argv[1], "send") == 0)
		return cmd_send(argv[2], parse_count(argv[3]), parse_count(argv[4]));
	if (argc == 4 && strcmp(argv[1], "read") == 0)
		return cmd_read(argv[2], argv[3]);
	if (argc == 4 && strcmp(argv[1], "counters") == 0)
		return cmd_counters(argv[2], argv[3]);
	if (argc >= 4 && strcmp(argv[1], "compare") == 0)
		return cmd_compare(argv[2], (const char *const *)argv + 3, (size_t)argc - 3);
	fprintf(stderr, "usage: sources-helper send IFACE COUNT SIZE | read SOURCE IFACE | counters SOURCE IFACE |"
			" compare exact|moving REGEX...\n");
	return 2;
}
