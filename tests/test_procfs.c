/* SPDX-License-Identifier: Apache-2.0 */
/* test_procfs: the /proc/net/dev parser, and the procfs source under the monitor (explicit, and
 * auto's choice on a tree without statistics folders, as gVisor's). */
#include "config.h"

#include "monitor.h"
#include "source_procfs.h"
#include "testutil.h"

#include <check.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define MIB UINT64_C(1048576)

/* What the parser gave: names and counters, in order. */
struct seen {
	char names[8][IFACE_NAME_MAX];
	struct counter_set counters[8];
	size_t n;
};

/* Parser callback: record the line. */
static void record(const char *name, size_t len, const struct counter_set *counters, void *ctx)
{
	struct seen *seen = ctx;
	ck_assert_uint_lt(seen->n, 8);
	ck_assert_uint_lt(len, IFACE_NAME_MAX);
	memcpy(seen->names[seen->n], name, len);
	seen->names[seen->n][len] = '\0';
	seen->counters[seen->n++] = *counters;
}

#define HEADER \
	"Inter-|   Receive                                                |  Transmit\n" \
	" face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls carrier compressed\n"

START_TEST(parse_kernel_text)
{
	const char text[] = HEADER
		"    lo: 10268055     200    0    0    0     0          0         0 10268055     200    0    0    0     0       0          0\n"
		"  eth0: 18446744073709551615 1 2 3 4 5 6 7 42 8 9 10 11 12 13 14\n"
		"veth-long-name1:1 0 0 0 0 0 0 0 2 0 0 0 0 0 0 0\n";
	struct seen seen = {0};
	ck_assert_uint_eq(procfs_parse(text, strlen(text), record, &seen), 3);
	ck_assert_str_eq(seen.names[0], "lo");
	ck_assert_uint_eq(seen.counters[0].value[COUNTER_RX_BYTES], 10268055);
	ck_assert_uint_eq(seen.counters[0].value[COUNTER_TX_BYTES], 10268055);
	ck_assert_str_eq(seen.names[1], "eth0");
	ck_assert_uint_eq(seen.counters[1].value[COUNTER_RX_BYTES], UINT64_MAX);
	ck_assert_uint_eq(seen.counters[1].value[COUNTER_TX_BYTES], 42); /* the ninth number */
	ck_assert_str_eq(seen.names[2], "veth-long-name1");
	ck_assert_uint_eq(seen.counters[2].value[COUNTER_TX_BYTES], 2);
}
END_TEST

START_TEST(parse_skips_malformed)
{
	const char text[] = HEADER
		"  bad0: 1 2 3\n"                                         /* too few numbers */
		"  bad1: 18446744073709551616 0 0 0 0 0 0 0 1 0 0 0 0 0 0 0\n" /* overflows */
		"  bad2: x 0 0 0 0 0 0 0 1 0 0 0 0 0 0 0\n"
		"    : 1 0 0 0 0 0 0 0 1 0 0 0 0 0 0 0\n"                  /* no name */
		"sixteen-chars-xx: 1 0 0 0 0 0 0 0 1 0 0 0 0 0 0 0\n"      /* longer than IFNAMSIZ allows */
		"  ok0: 7 0 0 0 0 0 0 0 9 0 0 0 0 0 0 0"; /* cut: no newline, still whole */
	struct seen seen = {0};
	ck_assert_uint_eq(procfs_parse(text, strlen(text), record, &seen), 1);
	ck_assert_str_eq(seen.names[0], "ok0");
	ck_assert_uint_eq(seen.counters[0].value[COUNTER_RX_BYTES], 7);
	ck_assert_uint_eq(seen.counters[0].value[COUNTER_TX_BYTES], 9);
	ck_assert_uint_eq(procfs_parse("", 0, record, &seen), 0);
}
END_TEST

START_TEST(parse_metric_columns)
{
	const char text[] = HEADER
		"  eth0: 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16\n"
		"  eth1: 1 2 3 4 5 6 7 8 9 10\n"; /* cut after tx packets: the rest is no value */
	struct seen seen = {0};
	ck_assert_uint_eq(procfs_parse(text, strlen(text), record, &seen), 2);
	const struct counter_set *c = &seen.counters[0];
	ck_assert_uint_eq(c->have, COUNTER_ALL);
	ck_assert_uint_eq(c->value[COUNTER_RX_BYTES], 1);
	ck_assert_uint_eq(c->value[COUNTER_RX_PACKETS], 2);
	ck_assert_uint_eq(c->value[COUNTER_RX_ERRORS], 3);
	ck_assert_uint_eq(c->value[COUNTER_RX_DROPPED], 4); /* the kernel's drop: rx_dropped + missed */
	ck_assert_uint_eq(c->value[COUNTER_TX_BYTES], 9);
	ck_assert_uint_eq(c->value[COUNTER_TX_PACKETS], 10);
	ck_assert_uint_eq(c->value[COUNTER_TX_ERRORS], 11);
	ck_assert_uint_eq(c->value[COUNTER_TX_DROPPED], 12);
	ck_assert_uint_eq(seen.counters[1].have,
			  COUNTER_BYTES | COUNTER_BIT(COUNTER_RX_PACKETS) | COUNTER_BIT(COUNTER_RX_ERRORS) |
				  COUNTER_BIT(COUNTER_RX_DROPPED) | COUNTER_BIT(COUNTER_TX_PACKETS));
}
END_TEST

/* ---- The source under the monitor ---------------------------------------------------------- */

static const char *root;
static char proc_path[600];
static struct iface_selector sel;
static struct monitor mon;

/* Fixture: an empty fake tree and a proc file beside it. */
static void tree_setup(void)
{
	root = fake_sysfs_new();
	snprintf(proc_path, sizeof proc_path, "%s/net-dev", root);
	sel = (struct iface_selector){0};
	mon = (struct monitor){.dir = {.fd = -1}};
}

/* Fixture: free the monitor, the selector and the tree. */
static void tree_teardown(void)
{
	monitor_free(&mon);
	iface_selector_free(&sel);
	unlink(proc_path);
	fake_sysfs_remove();
}

/* Write the proc file: eth0 and eth1 with the given counters (each line fixed width). */
static void write_proc(uint64_t rx0, uint64_t tx0, uint64_t rx1, uint64_t tx1)
{
	FILE *f = fopen(proc_path, "w");
	ck_assert_ptr_nonnull(f);
	fprintf(f, HEADER "  eth0: %20" PRIu64 " 0 0 0 0 0 0 0 %20" PRIu64 " 0 0 0 0 0 0 0\n"
		       "  eth1: %20" PRIu64 " 0 0 0 0 0 0 0 %20" PRIu64 " 0 0 0 0 0 0 0\n",
		rx0, tx0, rx1, tx1);
	ck_assert_int_eq(fclose(f), 0);
}

/* Remove the statistics folder of name, as gVisor's sysfs lacks it. */
static void drop_statistics(const char *name)
{
	char path[600];
	snprintf(path, sizeof path, "%s/class/net/%s/statistics/rx_bytes", root, name);
	ck_assert_int_eq(unlink(path), 0);
	snprintf(path, sizeof path, "%s/class/net/%s/statistics/tx_bytes", root, name);
	ck_assert_int_eq(unlink(path), 0);
	snprintf(path, sizeof path, "%s/class/net/%s/statistics", root, name);
	ck_assert_int_eq(rmdir(path), 0);
}

/* Select every interface, read with kind, rescan once. */
static void start(enum source_kind kind)
{
	const char *all[] = {".*", NULL};
	char err[IFACE_ERR_MAX] = "";
	ck_assert_msg(iface_selector_init(&sel, all, 1, err) == 0, "%s", err);
	ck_assert_msg(monitor_init(&mon, root, &sel, err) == 0, "%s", err);
	ck_assert_int_eq(monitor_use_source(&mon, kind, true, proc_path), 0);
	ck_assert_int_eq(monitor_rescan(&mon), 0);
}

/* Assert table slot i had exactly rx, tx MiB/s this tick. */
static void assert_rate(size_t i, double rx, double tx)
{
	ck_assert_msg(mon.ifaces[i].valid, "%s has no value", mon.ifaces[i].name);
	ck_assert_double_eq(mon.ifaces[i].rate.field[FIELD_RX], rx);
	ck_assert_double_eq(mon.ifaces[i].rate.field[FIELD_TX], tx);
}

START_TEST(explicit_procfs_rates)
{
	fake_iface_add("eth0", "up", 0x1003, 999, 999); /* sysfs's counters: not read */
	fake_iface_add("eth1", "up", 0x1003, 999, 999);
	fake_iface_add("eth2", "up", 0x1003, 999, 999); /* not in the proc file: no value */
	write_proc(0, 0, 10, 20);
	start(SOURCE_PROCFS);
	ck_assert_int_eq(monitor_source(&mon), SOURCE_PROCFS);
	monitor_tick(&mon, 0.0);
	write_proc(MIB, 2 * MIB, 10 + 3 * MIB, 20);
	monitor_tick(&mon, 1.0);
	assert_rate(0, 1.0, 2.0);
	assert_rate(1, 3.0, 0.0);
	ck_assert(!mon.ifaces[2].valid);
	ck_assert(mon.total_valid);
	ck_assert_double_eq(mon.total.field[FIELD_RX], 4.0);
}
END_TEST

START_TEST(auto_takes_procfs_without_statistics)
{
	fake_iface_add("eth0", "up", 0x1003, 0, 0);
	fake_iface_add("eth1", "up", 0x1003, 0, 0);
	drop_statistics("eth0");
	drop_statistics("eth1");
	write_proc(5, 5, 5, 5);
	start(SOURCE_AUTO);
	ck_assert_int_eq(monitor_source(&mon), SOURCE_PROCFS);
	ck_assert_uint_ne(mon.src.notes & SOURCE_NOTE_PROCFS, 0);
	monitor_tick(&mon, 0.0);
	write_proc(5 + MIB, 5, 5, 5 + 4 * MIB);
	monitor_tick(&mon, 2.0);
	assert_rate(0, 0.5, 0.0);
	assert_rate(1, 0.0, 2.0);
}
END_TEST

START_TEST(auto_keeps_sysfs_with_statistics)
{
	fake_iface_add("eth0", "up", 0x1003, 0, 0);
	write_proc(5, 5, 5, 5);
	start(SOURCE_AUTO);
	ck_assert_int_eq(monitor_source(&mon), SOURCE_SYSFS); /* --sysfs: never netlink */
	ck_assert_uint_eq(mon.src.notes & SOURCE_NOTE_PROCFS, 0);
}
END_TEST

START_TEST(procfs_unreadable_is_refused)
{
	char err[IFACE_ERR_MAX] = "";
	ck_assert_msg(monitor_init(&mon, root, &sel, err) == 0, "%s", err);
	ck_assert_int_eq(monitor_use_source(&mon, SOURCE_PROCFS, true, "/nonexistent/net/dev"), -ENOENT);
}
END_TEST

/* Add fn as a tcase of its own, with a fake tree around it. */
static void add(Suite *s, const char *name, const TTest *fn)
{
	testutil_add(s, name, fn, tree_setup, tree_teardown);
}

/* The procfs suite. */
static Suite *procfs_suite(void)
{
	Suite *s = suite_create("procfs");
	testutil_add(s, "parse_kernel_text", parse_kernel_text, NULL, NULL);
	testutil_add(s, "parse_skips_malformed", parse_skips_malformed, NULL, NULL);
	testutil_add(s, "parse_metric_columns", parse_metric_columns, NULL, NULL);
	add(s, "explicit_procfs_rates", explicit_procfs_rates);
	add(s, "auto_takes_procfs_without_statistics", auto_takes_procfs_without_statistics);
	add(s, "auto_keeps_sysfs_with_statistics", auto_keeps_sysfs_with_statistics);
	add(s, "procfs_unreadable_is_refused", procfs_unreadable_is_refused);
	return s;
}

int main(void)
{
	return testutil_run(procfs_suite());
}
