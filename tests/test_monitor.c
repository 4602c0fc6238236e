/* SPDX-License-Identifier: Apache-2.0 */
/* test_monitor: selection, rescans, ticks and "no value" on a fake sysfs tree. */
#include "config.h"

#include "cost.h"
#include "monitor.h"
#include "source_sysfs.h"
#include "testutil.h"

#include <check.h>
#include <math.h>
#include <fcntl.h>
#include <net/if.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#define MIB UINT64_C(1048576)

static const char *root;
static struct iface_selector sel;
static struct monitor mon;

/* Fixture: an empty fake tree; the monitor starts in start(). */
static void tree_setup(void)
{
	root = fake_sysfs_new();
	sel = (struct iface_selector){0};
	mon = (struct monitor){.dir = {.fd = -1}};
}

/* Fixture: free the monitor, the selector and the tree. */
static void tree_teardown(void)
{
	monitor_free(&mon);
	iface_selector_free(&sel);
	fake_sysfs_remove();
}

/* Compile the NULL-terminated patterns (none: the default rule), start and rescan once. */
static void start(const char *const *patterns)
{
	size_t n = 0;
	while (patterns != NULL && patterns[n] != NULL)
		n++;
	char err[IFACE_ERR_MAX] = "";
	ck_assert_msg(iface_selector_init(&sel, patterns, n, err) == 0, "%s", err);
	ck_assert_msg(monitor_init(&mon, root, &sel, err) == 0, "%s", err);
	ck_assert_int_eq(monitor_rescan(&mon), 0);
}

/* The monitored names, comma-separated, in table order (static buffer). */
static const char *names(void)
{
	static char text[512];
	text[0] = '\0';
	for (size_t i = 0; i < mon.count; i++) {
		if (i > 0)
			strcat(text, ",");
		strcat(text, mon.ifaces[i].name);
	}
	return text;
}

/* The entry for name; fails the test if it is not monitored. */
static struct monitored_iface *entry(const char *name)
{
	for (size_t i = 0; i < mon.count; i++)
		if (strcmp(mon.ifaces[i].name, name) == 0)
			return &mon.ifaces[i];
	ck_abort_msg("%s is not monitored", name);
	return NULL;
}

/* The sysfs source's counter files of name; fails the test if it has none. */
static const struct counter_files *files(const char *name)
{
	const struct counter_files *f = source_sysfs_files(&mon.src, entry(name)->id);
	ck_assert_msg(f != NULL, "%s has no sysfs slot", name);
	return f;
}

/* Whether the interface in table slot i holds its two counter files. */
static bool holds(size_t i)
{
	const struct counter_files *f = source_sysfs_files(&mon.src, mon.ifaces[i].id);
	return f != NULL && f->fd[COUNTER_RX_BYTES] >= 0 && f->fd[COUNTER_TX_BYTES] >= 0;
}

/* Assert that name had a rate of exactly rx, tx MiB/s this tick. */
static void assert_rate(const char *name, double rx, double tx)
{
	const struct monitored_iface *e = entry(name);
	ck_assert_msg(e->valid, "%s has no value", name);
	ck_assert_double_eq(e->rate.field[FIELD_RX], rx);
	ck_assert_double_eq(e->rate.field[FIELD_TX], tx);
}

/* Assert that name had no value this tick. */
static void assert_no_value(const char *name)
{
	ck_assert_msg(!entry(name)->valid, "%s has a value", name);
}

/* Assert that total is exactly rx, tx and valid. */
static void assert_total(double rx, double tx)
{
	ck_assert(mon.total_valid);
	ck_assert_double_eq(mon.total.field[FIELD_RX], rx);
	ck_assert_double_eq(mon.total.field[FIELD_TX], tx);
}

START_TEST(initial_rescan_sorted)
{
	fake_iface_add("eth2", "up", 0x1003, 0, 0);
	fake_iface_add("eth10", "up", 0x1003, 0, 0);
	fake_iface_add("eth3", "down", 0x1002, 0, 0);
	fake_iface_add("ib0", "unknown", 0x1003, 0, 0);
	fake_iface_add("lo", "unknown", 0x9, 0, 0);
	fake_iface_add("eth1", "up", 0x1003, 0, 0);
	start(NULL);
	ck_assert_str_eq(names(), "eth1,eth10,eth2,ib0");
	for (size_t i = 0; i < mon.count; i++) {
		ck_assert_uint_eq(mon.ifaces[i].id, i); /* the first listing is sorted */
		ck_assert(holds(i));
	}
}
END_TEST

START_TEST(regex_selection)
{
	fake_iface_add("eth1", "down", 0x1002, 0, 0);
	fake_iface_add("eth0", "up", 0x1003, 0, 0);
	fake_iface_add("lo", "unknown", 0x9, 0, 0);
	start((const char *const[]){"lo|eth1", NULL});
	ck_assert_str_eq(names(), "eth1,lo");
}
END_TEST

START_TEST(baseline_tick_has_no_value)
{
	fake_iface_add("eth0", "up", 0x1003, 10, 20);
	start(NULL);
	monitor_tick(&mon, 0.0);
	assert_no_value("eth0");
	ck_assert(!mon.total_valid);
	ck_assert(isnan(mon.total.field[FIELD_RX]) && isnan(mon.total.field[FIELD_TX])); /* not published */
}
END_TEST

START_TEST(tick_rates)
{
	fake_iface_add("eth0", "up", 0x1003, 1000, 5000);
	fake_iface_add("eth1", "up", 0x1003, 0, 0);
	start(NULL);
	monitor_tick(&mon, 0.0);
	fake_iface_set("eth0", 1000 + MIB, 5000 + 2 * MIB);
	fake_iface_set("eth1", 3 * MIB, 0);
	monitor_tick(&mon, 0.5);
	assert_rate("eth0", 2.0, 4.0);
	assert_rate("eth1", 6.0, 0.0);
	assert_total(8.0, 4.0);
	monitor_tick(&mon, 0.25); /* nothing moved: an honest zero */
	assert_rate("eth0", 0.0, 0.0);
	assert_rate("eth1", 0.0, 0.0);
	assert_total(0.0, 0.0);
	fake_iface_set("eth0", 1000 + 2 * MIB, 5000 + 2 * MIB);
	monitor_tick(&mon, 4.0);
	assert_rate("eth0", 0.25, 0.0);
}
END_TEST

START_TEST(vanished_then_back)
{
	fake_iface_add("eth0", "up", 0x1003, 0, 0);
	fake_iface_add("eth1", "up", 0x1003, 5 * MIB, 5 * MIB);
	start(NULL);
	monitor_tick(&mon, 0.0);
	fake_iface_remove("eth1");
	ck_assert_int_eq(monitor_rescan(&mon), 0);
	ck_assert_str_eq(names(), "eth0,eth1"); /* still monitored, by name */
	ck_assert_int_eq(files("eth1")->fd[COUNTER_RX_BYTES], -1);
	ck_assert_int_eq(files("eth1")->fd[COUNTER_TX_BYTES], -1);
	fake_iface_set("eth0", MIB, 0);
	monitor_tick(&mon, 1.0);
	assert_rate("eth0", 1.0, 0.0);
	assert_no_value("eth1");
	assert_total(1.0, 0.0); /* the sum of the interfaces that had a value */
	monitor_tick(&mon, 1.0);
	assert_no_value("eth1");
	ck_assert_int_eq(monitor_rescan(&mon), 0);
	monitor_tick(&mon, 1.0);
	assert_no_value("eth1");
	/* it comes back with smaller counters (re-created): a fresh baseline, never the old one */
	fake_iface_add("eth1", "up", 0x1003, 100, 200);
	ck_assert_int_eq(monitor_rescan(&mon), 0);
	ck_assert_int_ge(files("eth1")->fd[COUNTER_RX_BYTES], 0);
	monitor_tick(&mon, 1.0);
	assert_no_value("eth1");
	fake_iface_set("eth1", 100 + MIB, 200 + 6 * MIB);
	monitor_tick(&mon, 2.0);
	assert_rate("eth1", 0.5, 3.0);
	assert_total(0.5, 3.0);
	ck_assert_str_eq(names(), "eth0,eth1");
}
END_TEST

START_TEST(name_moves_to_another_device)
{
	fake_iface_add("eth0", "up", 0x1003, 0, 0);
	fake_iface_write("eth0", "ifindex", "3\n");
	start(NULL);
	monitor_tick(&mon, 0.0);
	fake_iface_set("eth0", MIB, 0);
	monitor_tick(&mon, 1.0);
	assert_rate("eth0", 1.0, 0.0);
	/* eth0 renamed away and a new eth0 created: the held files belong to the old device */
	fake_iface_remove("eth0");
	fake_iface_add("eth0", "up", 0x1003, 10 * MIB, 0);
	fake_iface_write("eth0", "ifindex", "7\n");
	ck_assert_int_eq(monitor_rescan(&mon), 0);
	ck_assert_int_eq(entry("eth0")->ifindex, 7);
	monitor_tick(&mon, 1.0);
	assert_no_value("eth0"); /* a fresh baseline on the new device */
	fake_iface_set("eth0", 12 * MIB, 0);
	monitor_tick(&mon, 1.0);
	assert_rate("eth0", 2.0, 0.0); /* read from the new device's files */
}
END_TEST

/* Make a plain file named name in class/net (what bonding_masters is): no interface. */
static void plain_file(const char *name)
{
	char path[512];
	snprintf(path, sizeof path, "%s/class/net/%s", root, name);
	FILE *f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs("bond0\n", f);
	fclose(f);
}

START_TEST(regular_file_is_no_interface)
{
	fake_iface_add("eth0", "up", 0x1003, 0, 0);
	plain_file("bonding_masters");
	start((const char *const[]){".*", NULL});
	ck_assert_str_eq(names(), "eth0");
}
END_TEST

/* Hot-plug under a selection by name and under a regex. Both see the same; with nothing selected
 * coming or going (eth3, not selected, appears) the plain names are looked up, so the count of the
 * last listing stays (listed_quiet: 3), where the regex lists again (4). When a selected one comes
 * or goes (eth1 vanishes, a plain file takes its name; eth9 appears), both list, so that auto
 * prices the new selection on a fresh count. */
static void hot_plug_by(const char *pattern, size_t listed_quiet)
{
	fake_iface_add("eth0", "up", 0x1003, 0, 0);
	fake_iface_add("eth1", "up", 0x1003, 0, 0);
	fake_iface_add("eth2", "down", 0x1002, 0, 0);
	start((const char *const[]){pattern, NULL});
	ck_assert_str_eq(names(), "eth1,eth2"); /* named: eth2 too, though down */
	ck_assert_uint_eq(mon.listed, 3);
	fake_iface_add("eth3", "up", 0x1003, 0, 0);
	ck_assert_int_eq(monitor_rescan(&mon), 0);
	ck_assert_str_eq(names(), "eth1,eth2");
	ck_assert_uint_eq(mon.listed, listed_quiet);
	monitor_tick(&mon, 0.0);
	fake_iface_set("eth1", MIB, 0);
	monitor_tick(&mon, 1.0);
	assert_rate("eth1", 1.0, 0.0); /* the lookup kept its baseline and files */
	fake_iface_remove("eth1");
	plain_file("eth1");
	fake_iface_add("eth9", "up", 0x1003, 5 * MIB, 0);
	ck_assert_int_eq(monitor_rescan(&mon), 0);
	ck_assert_str_eq(names(), "eth1,eth2,eth9");
	ck_assert_uint_eq(mon.listed, 4); /* eth0, eth2, eth3, eth9: the plain file is no interface */
	ck_assert(holds(2));
	monitor_tick(&mon, 1.0);
	assert_no_value("eth1");
	assert_no_value("eth9"); /* its baseline */
	fake_iface_set("eth9", 7 * MIB, 0);
	fake_iface_set("eth2", 0, MIB);
	monitor_tick(&mon, 1.0);
	assert_no_value("eth1");
	assert_rate("eth9", 2.0, 0.0);
	assert_rate("eth2", 0.0, 1.0);
	fake_iface_remove("eth9"); /* and it goes again */
	ck_assert_int_eq(monitor_rescan(&mon), 0);
	ck_assert_uint_eq(mon.listed, 3);
	monitor_tick(&mon, 1.0);
	assert_no_value("eth9");
	assert_rate("eth2", 0.0, 0.0);
}

START_TEST(rescan_looks_up_plain_names)
{
	hot_plug_by("eth1|eth2|eth9", 3); /* looked up: no listing counted eth3 */
}
END_TEST

START_TEST(rescan_lists_for_a_regex)
{
	hot_plug_by("eth[129]", 4); /* listed: eth3 counted */
}
END_TEST

START_TEST(unreadable_counter)
{
	fake_iface_add("eth0", "up", 0x1003, 0, 0);
	start(NULL);
	monitor_tick(&mon, 0.0);
	fake_iface_write("eth0", "statistics/rx_bytes", "garbage\n"); /* the held fd sees it */
	monitor_tick(&mon, 1.0);
	assert_no_value("eth0");
	ck_assert(!mon.total_valid);
	ck_assert_int_eq(files("eth0")->fd[COUNTER_RX_BYTES], -1); /* closed until the next rescan */
	fake_iface_set("eth0", 4 * MIB, 0);
	monitor_tick(&mon, 1.0);
	assert_no_value("eth0");
	ck_assert_int_eq(monitor_rescan(&mon), 0);
	monitor_tick(&mon, 1.0);
	assert_no_value("eth0"); /* the first good read after a failure is a baseline */
	fake_iface_set("eth0", 5 * MIB, MIB);
	monitor_tick(&mon, 1.0);
	assert_rate("eth0", 1.0, 1.0);
}
END_TEST

START_TEST(counter_backwards)
{
	fake_iface_add("eth0", "up", 0x1003, 10 * MIB, 10 * MIB);
	start(NULL);
	monitor_tick(&mon, 0.0);
	fake_iface_set("eth0", 11 * MIB, 11 * MIB);
	monitor_tick(&mon, 1.0);
	assert_rate("eth0", 1.0, 1.0);
	fake_iface_set("eth0", MIB, 12 * MIB); /* rx reset */
	monitor_tick(&mon, 1.0);
	assert_no_value("eth0");
	ck_assert(!mon.total_valid);
	fake_iface_set("eth0", MIB + MIB / 2, 12 * MIB);
	monitor_tick(&mon, 0.5);
	assert_rate("eth0", 1.0, 0.0); /* measured from the new baseline */
	fake_iface_set("eth0", 2 * MIB, 0); /* tx reset alone */
	monitor_tick(&mon, 1.0);
	assert_no_value("eth0");
	fake_iface_set("eth0", 2 * MIB, 2 * MIB);
	monitor_tick(&mon, 1.0);
	assert_rate("eth0", 0.0, 2.0);
}
END_TEST

/* Start monitoring with -m's counters and (speed) the link speed; the default selection. */
static void start_metrics(unsigned counters, bool speed)
{
	char err[IFACE_ERR_MAX] = "";
	ck_assert_msg(iface_selector_init(&sel, NULL, 0, err) == 0, "%s", err);
	ck_assert_msg(monitor_init(&mon, root, &sel, err) == 0, "%s", err);
	monitor_set_counters(&mon, counters, speed);
	ck_assert_int_eq(monitor_use_source(&mon, SOURCE_SYSFS, true, NULL), 0);
	ck_assert_int_eq(monitor_rescan(&mon), 0);
}

START_TEST(speed_read_at_rescan)
{
	fake_iface_add("eth0", "up", 0x1003, 0, 0);
	fake_iface_write("eth0", "speed", "1000\n");
	start_metrics(0, true);
	ck_assert_double_eq(monitor_speed(&mon, 0), 1000.0);
	monitor_tick(&mon, 0.0);
	fake_iface_set("eth0", 12500000, 0); /* 1 Gb/s for 0.1 s: 100 % */
	fake_iface_write("eth0", "speed", "10000\n"); /* renegotiated: seen at the next rescan only */
	monitor_tick(&mon, 0.1);
	ck_assert_double_eq_tol(entry("eth0")->rate.field[FIELD_RX_UTIL], 100.0, 1e-9);
	ck_assert_double_eq(entry("eth0")->rate.field[FIELD_TX_UTIL], 0.0);
	ck_assert_int_eq(monitor_rescan(&mon), 0);
	ck_assert_double_eq(monitor_speed(&mon, 0), 10000.0);
	fake_iface_set("eth0", 25000000, 0);
	monitor_tick(&mon, 0.1);
	ck_assert_double_eq_tol(entry("eth0")->rate.field[FIELD_RX_UTIL], 10.0, 1e-9);
	ck_assert_double_eq_tol(mon.total.field[FIELD_RX_UTIL], 10.0, 1e-9);
	static const char *const unknown[] = {"-1\n", "0\n", "", "garbage\n", "99999999999999999999\n"};
	for (size_t i = 0; i < sizeof unknown / sizeof *unknown; i++) {
		fake_iface_write("eth0", "speed", unknown[i]);
		ck_assert_int_eq(monitor_rescan(&mon), 0);
		ck_assert_double_eq(monitor_speed(&mon, 0), 0.0);
		monitor_tick(&mon, 0.1);
		ck_assert(entry("eth0")->valid);
		ck_assert(isnan(entry("eth0")->rate.field[FIELD_RX_UTIL]));
		ck_assert(isnan(mon.total.field[FIELD_RX_UTIL]));
	}
}
END_TEST

START_TEST(speed_not_read_without_util)
{
	fake_iface_add("eth0", "up", 0x1003, 0, 0);
	fake_iface_write("eth0", "speed", "1000\n");
	start_metrics(COUNTER_BIT(COUNTER_RX_PACKETS) | COUNTER_BIT(COUNTER_TX_PACKETS), false);
	ck_assert_double_eq(monitor_speed(&mon, 0), 0.0);
}
END_TEST

START_TEST(missing_counter_files_are_nan_alone)
{
	fake_iface_add("eth0", "up", 0x1003, 0, 0);
	fake_iface_counter("eth0", "rx_packets", 5);
	fake_iface_counter("eth0", "rx_dropped", 1); /* no rx_missed_errors: none missed */
	fake_iface_write("eth0", "statistics/rx_errors", "abc\n"); /* garbage: no value, not fatal */
	fake_iface_write("eth0", "statistics/tx_errors", "");
	start_metrics(COUNTER_ALL, false);
	const struct counter_files *f = files("eth0");
	ck_assert_int_ge(f->fd[COUNTER_RX_PACKETS], 0);
	ck_assert_int_eq(f->fd[COUNTER_TX_PACKETS], -1);
	ck_assert_int_eq(f->fd[COUNTERS_MISSED], -1);
	monitor_tick(&mon, 0.0);
	fake_iface_set("eth0", MIB, MIB);
	fake_iface_counter("eth0", "rx_packets", 15);
	fake_iface_counter("eth0", "rx_dropped", 3);
	monitor_tick(&mon, 0.5);
	const struct rate *r = &entry("eth0")->rate;
	ck_assert(entry("eth0")->valid);
	ck_assert_double_eq(r->field[FIELD_RX], 2.0);
	ck_assert_double_eq(r->field[FIELD_RX_PACKETS], 20.0);
	ck_assert_double_eq(r->field[FIELD_RX_DROPPED], 4.0);
	ck_assert(isnan(r->field[FIELD_TX_PACKETS]) && isnan(r->field[FIELD_RX_ERRORS]) &&
		  isnan(r->field[FIELD_TX_ERRORS]) && isnan(r->field[FIELD_TX_DROPPED]));
	ck_assert_double_eq(mon.total.field[FIELD_RX_PACKETS], 20.0);
	ck_assert(isnan(mon.total.field[FIELD_TX_PACKETS]));
	fake_iface_counter("eth0", "rx_packets", 14); /* backwards: that field alone, that tick */
	monitor_tick(&mon, 0.5);
	ck_assert(entry("eth0")->valid);
	ck_assert(isnan(r->field[FIELD_RX_PACKETS]));
	ck_assert_double_eq(r->field[FIELD_RX], 0.0);
	fake_iface_counter("eth0", "rx_packets", 24);
	monitor_tick(&mon, 0.5);
	ck_assert_double_eq(r->field[FIELD_RX_PACKETS], 20.0);
}
END_TEST

/* rx_dropped includes rx_missed_errors: a tick where that file cannot be read gives no drops
 * value, and the next good tick no burst (its baseline was not the lower rx_dropped alone). */
START_TEST(unreadable_missed_gives_no_drops)
{
	fake_iface_add("eth0", "up", 0x1003, 0, 0);
	fake_iface_counter("eth0", "rx_dropped", 10);
	fake_iface_counter("eth0", "rx_missed_errors", 1000);
	start_metrics(COUNTER_BIT(COUNTER_RX_DROPPED) | COUNTER_BIT(COUNTER_TX_DROPPED), false);
	ck_assert_int_ge(files("eth0")->fd[COUNTERS_MISSED], 0);
	ck_assert(!files("eth0")->missed_failed);
	const struct rate *r = &entry("eth0")->rate;
	monitor_tick(&mon, 0.0);
	fake_iface_counter("eth0", "rx_dropped", 12);
	fake_iface_counter("eth0", "rx_missed_errors", 1002);
	monitor_tick(&mon, 1.0);
	ck_assert_double_eq(r->field[FIELD_RX_DROPPED], 4.0);
	fake_iface_write("eth0", "statistics/rx_missed_errors", "garbage\n");
	monitor_tick(&mon, 1.0);
	ck_assert(entry("eth0")->valid);
	ck_assert(isnan(r->field[FIELD_RX_DROPPED]));
	ck_assert_double_eq(r->field[FIELD_RX], 0.0);
	fake_iface_counter("eth0", "rx_missed_errors", 1004);
	monitor_tick(&mon, 1.0);
	ck_assert_msg(isnan(r->field[FIELD_RX_DROPPED]), "a burst of %g drops/s", r->field[FIELD_RX_DROPPED]);
	fake_iface_counter("eth0", "rx_missed_errors", 1006);
	monitor_tick(&mon, 1.0);
	ck_assert_double_eq(r->field[FIELD_RX_DROPPED], 2.0);
}
END_TEST

/* An rx_missed_errors that exists but cannot be opened (here a symbolic link loop: ELOOP) is
 * not "none missed": rx_dropped has no value, the other fields do. */
START_TEST(unopenable_missed_gives_no_drops)
{
	fake_iface_add("eth0", "up", 0x1003, 0, 0);
	fake_iface_counter("eth0", "rx_dropped", 10);
	char path[4096];
	snprintf(path, sizeof path, "%s/class/net/eth0/statistics/rx_missed_errors", root);
	ck_assert_int_eq(symlink("rx_missed_errors", path), 0);
	start_metrics(COUNTER_BIT(COUNTER_RX_DROPPED) | COUNTER_BIT(COUNTER_TX_DROPPED), false);
	ck_assert_int_eq(files("eth0")->fd[COUNTERS_MISSED], -1);
	ck_assert(files("eth0")->missed_failed);
	monitor_tick(&mon, 0.0);
	fake_iface_set("eth0", MIB, 0);
	fake_iface_counter("eth0", "rx_dropped", 20);
	monitor_tick(&mon, 1.0);
	const struct rate *r = &entry("eth0")->rate;
	ck_assert(entry("eth0")->valid);
	ck_assert_double_eq(r->field[FIELD_RX], 1.0);
	ck_assert(isnan(r->field[FIELD_RX_DROPPED]));
	ck_assert(isnan(mon.total.field[FIELD_RX_DROPPED]));
}
END_TEST

START_TEST(counters_at_max)
{
	fake_iface_add("eth0", "up", 0x1003, UINT64_MAX - MIB, UINT64_MAX - 2 * MIB);
	start(NULL);
	monitor_tick(&mon, 0.0);
	fake_iface_set("eth0", UINT64_MAX, UINT64_MAX);
	monitor_tick(&mon, 1.0);
	assert_rate("eth0", 1.0, 2.0);
}
END_TEST

START_TEST(total_none_valid)
{
	fake_iface_add("eth0", "up", 0x1003, 0, 0);
	fake_iface_add("eth1", "up", 0x1003, 0, 0);
	start(NULL);
	monitor_tick(&mon, 0.0);
	monitor_tick(&mon, 1.0);
	assert_total(0.0, 0.0);
	fake_iface_remove("eth0");
	fake_iface_remove("eth1");
	ck_assert_int_eq(monitor_rescan(&mon), 0);
	monitor_tick(&mon, 1.0);
	assert_no_value("eth0");
	assert_no_value("eth1");
	ck_assert(!mon.total_valid);
	ck_assert(isnan(mon.total.field[FIELD_RX]) && isnan(mon.total.field[FIELD_TX])); /* not published */
}
END_TEST

START_TEST(zero_dt_is_no_value)
{
	fake_iface_add("eth0", "up", 0x1003, 0, 0);
	start(NULL);
	monitor_tick(&mon, 0.0);
	fake_iface_set("eth0", MIB, MIB);
	monitor_tick(&mon, 0.0);
	assert_no_value("eth0");
	fake_iface_set("eth0", 2 * MIB, 2 * MIB);
	monitor_tick(&mon, 1.0); /* the zero-dt read still became the baseline */
	assert_rate("eth0", 1.0, 1.0);
}
END_TEST

START_TEST(newcomer_added_sorted)
{
	fake_iface_add("eth0", "up", 0x1003, 0, 0);
	fake_iface_add("eth2", "up", 0x1003, 0, 0);
	start(NULL);
	monitor_tick(&mon, 0.0);
	fake_iface_add("ib0", "up", 0x1003, 0, 0);
	fake_iface_add("eth1", "up", 0x1003, 7, 7);
	fake_iface_add("eth3", "down", 0x1002, 0, 0);
	ck_assert_int_eq(monitor_rescan(&mon), 0);
	ck_assert_str_eq(names(), "eth0,eth1,eth2,ib0");
	ck_assert_uint_eq(entry("eth0")->id, 0); /* ids stay with the names across the insertion */
	ck_assert_uint_eq(entry("eth2")->id, 1);
	ck_assert_uint_ge(entry("eth1")->id, 2);
	ck_assert_uint_ge(entry("ib0")->id, 2);
	ck_assert_uint_ne(entry("eth1")->id, entry("ib0")->id);
	fake_iface_set("eth2", MIB, 0);
	monitor_tick(&mon, 1.0);
	assert_rate("eth2", 1.0, 0.0); /* kept its baseline across the insertion */
	assert_no_value("eth1");        /* a newcomer's first read is its baseline */
	assert_no_value("ib0");
	assert_total(1.0, 0.0);
	fake_iface_set("eth1", 7 + 2 * MIB, 7);
	monitor_tick(&mon, 1.0);
	assert_rate("eth1", 2.0, 0.0);
	assert_rate("ib0", 0.0, 0.0);
	fake_iface_write("eth3", "operstate", "up\n"); /* goes up later: picked up then */
	ck_assert_int_eq(monitor_rescan(&mon), 0);
	ck_assert_str_eq(names(), "eth0,eth1,eth2,eth3,ib0");
}
END_TEST

START_TEST(rescan_idempotent)
{
	fake_iface_add("eth1", "up", 0x1003, 0, 0);
	fake_iface_add("eth0", "up", 0x1003, 0, 0);
	start(NULL);
	int fd0 = files("eth0")->fd[COUNTER_RX_BYTES], fd1 = files("eth1")->fd[COUNTER_TX_BYTES];
	monitor_tick(&mon, 0.0);
	for (int i = 0; i < 3; i++)
		ck_assert_int_eq(monitor_rescan(&mon), 0);
	ck_assert_uint_eq(mon.scans, 4);
	ck_assert_str_eq(names(), "eth0,eth1");
	ck_assert_int_eq(files("eth0")->fd[COUNTER_RX_BYTES], fd0); /* held, not re-opened */
	ck_assert_int_eq(files("eth1")->fd[COUNTER_TX_BYTES], fd1);
	fake_iface_set("eth0", MIB, MIB);
	monitor_tick(&mon, 1.0);
	assert_rate("eth0", 1.0, 1.0);
}
END_TEST

START_TEST(many_interfaces)
{
	char name[IFACE_NAME_MAX];
	for (int i = 99; i >= 0; i--) { /* created in reverse, listed in whatever order */
		snprintf(name, sizeof name, "veth%03d", i);
		fake_iface_add(name, "up", 0x1003, 0, 0);
	}
	start(NULL);
	ck_assert_uint_eq(mon.count, 100);
	for (size_t i = 1; i < mon.count; i++)
		ck_assert_int_lt(strcmp(mon.ifaces[i - 1].name, mon.ifaces[i].name), 0);
	monitor_tick(&mon, 0.0);
	for (int i = 0; i < 100; i++) {
		snprintf(name, sizeof name, "veth%03d", i);
		fake_iface_set(name, MIB, 0);
	}
	monitor_tick(&mon, 1.0);
	assert_total(100.0, 0.0);
}
END_TEST

START_TEST(init_unreadable)
{
	char missing[600], err[IFACE_ERR_MAX] = "";
	snprintf(missing, sizeof missing, "%s/nowhere", root);
	ck_assert_int_eq(iface_selector_init(&sel, NULL, 0, err), 0);
	ck_assert_int_eq(monitor_init(&mon, missing, &sel, err), -1);
	ck_assert_msg(strstr(err, missing) != NULL, "'%s' does not name %s", err, missing);
	monitor_free(&mon); /* safe after a failed init, as main.c does */
	ck_assert_uint_eq(mon.count, 0);
}
END_TEST

/* The lowest free file descriptor: how many the process holds before the test. */
static int fds_in_use(void)
{
	int fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	ck_assert_int_ge(fd, 0);
	close(fd);
	return fd;
}

/* Add n up interfaces veth000... with zero counters. */
static void add_vethes(int n)
{
	char name[IFACE_NAME_MAX];
	for (int i = 0; i < n; i++) {
		snprintf(name, sizeof name, "veth%03d", i);
		fake_iface_add(name, "up", 0x1003, 0, 0);
	}
}

/* Move every veth's counters by one MiB each way, tick one second, and assert all 1 MiB/s. */
static void assert_all_valued(int n)
{
	static uint64_t moved;
	char name[IFACE_NAME_MAX];
	moved += MIB;
	for (int i = 0; i < n; i++) {
		snprintf(name, sizeof name, "veth%03d", i);
		fake_iface_set(name, moved, moved);
	}
	monitor_tick(&mon, 1.0);
	for (int i = 0; i < n; i++) {
		snprintf(name, sizeof name, "veth%03d", i);
		assert_rate(name, 1.0, 1.0);
	}
	assert_total(n, n);
}

START_TEST(fd_limit_raised_as_needed)
{
	add_vethes(40);
	struct rlimit low = {(rlim_t)fds_in_use() + 20, (rlim_t)fds_in_use() + 1000};
	ck_assert_int_eq(setrlimit(RLIMIT_NOFILE, &low), 0);
	start(NULL);
	struct rlimit now;
	ck_assert_int_eq(getrlimit(RLIMIT_NOFILE, &now), 0);
	ck_assert_uint_eq(now.rlim_cur, 2 * 40 + 64); /* 2 files each and the margin, no more */
	ck_assert_uint_eq(now.rlim_max, low.rlim_max);
	for (size_t i = 0; i < mon.count; i++)
		ck_assert(holds(i) && !source_sysfs_per_tick(&mon.src, mon.ifaces[i].id));
	ck_assert_uint_eq(mon.src.notes & SOURCE_NOTE_FDS, 0);
	monitor_tick(&mon, 0.0);
	assert_all_valued(40);
}
END_TEST

START_TEST(fd_limit_hard_reads_per_tick)
{
	add_vethes(40);
	rlim_t limit = 64 + 20; /* the margin kept free, and room for 10 interfaces' files */
	ck_assert_int_lt(fds_in_use() + 20, (int)limit);
	ck_assert_int_eq(setrlimit(RLIMIT_NOFILE, &(struct rlimit){limit, limit}), 0);
	start(NULL);
	ck_assert_uint_eq(mon.count, 40); /* the default rule's reads still found room */
	size_t per_tick = 0;
	for (size_t i = 0; i < mon.count; i++)
		per_tick += source_sysfs_per_tick(&mon.src, mon.ifaces[i].id);
	ck_assert_uint_eq(per_tick, 30);
	ck_assert_uint_ne(mon.src.notes & SOURCE_NOTE_FDS, 0);
	monitor_tick(&mon, 0.0);
	assert_all_valued(40); /* every interface has a value, held files or not */
	assert_all_valued(40); /* again: the per-tick reads closed what they opened */
}
END_TEST

/* Mirror the interfaces of the process's network namespace (names and ifindexes) in the fake tree. */
static void mirror_interfaces(void)
{
	struct if_nameindex *list = if_nameindex();
	ck_assert_ptr_nonnull(list);
	for (struct if_nameindex *p = list; p->if_index != 0; p++) {
		char text[32];
		fake_iface_add(p->if_name, "up", 0x1003, 0, 0);
		snprintf(text, sizeof text, "%u\n", p->if_index);
		fake_iface_write(p->if_name, "ifindex", text);
	}
	if_freenameindex(list);
}

/* Mirror the process's own interfaces (names and ifindexes, as netlink sees them) in the fake
 * tree; in a network namespace of its own when allowed (root), so that nothing races. */
static void mirror_own_interfaces(void)
{
	(void)unshare(CLONE_NEWNET); /* the test runs in a forked child: nothing leaks */
	mirror_interfaces();
}

/* Start on the fake tree with every name selected and the netlink source. */
static void start_netlink(void)
{
	const char *all[] = {".*", NULL};
	char err[IFACE_ERR_MAX] = "";
	ck_assert_msg(iface_selector_init(&sel, all, 1, err) == 0, "%s", err);
	ck_assert_msg(monitor_init(&mon, root, &sel, err) == 0, "%s", err);
	ck_assert_int_eq(monitor_use_source(&mon, SOURCE_NETLINK, false, NULL), 0);
	ck_assert_int_eq(monitor_rescan(&mon), 0);
}

START_TEST(netlink_kept_while_sysfs_agrees)
{
	mirror_own_interfaces();
	start_netlink();
	ck_assert_int_eq(monitor_source(&mon), SOURCE_NETLINK);
	ck_assert_uint_eq(mon.src.notes & SOURCE_NOTE_FOREIGN, 0);
	ck_assert_int_eq(monitor_rescan(&mon), 0);
	ck_assert_int_eq(monitor_source(&mon), SOURCE_NETLINK);
}
END_TEST

START_TEST(netlink_given_up_when_an_ifindex_differs)
{
	mirror_own_interfaces();
	fake_iface_write("lo", "ifindex", "9999\n"); /* lo is 1 in every namespace */
	start_netlink();
	ck_assert_int_eq(monitor_source(&mon), SOURCE_SYSFS);
	ck_assert_uint_ne(mon.src.notes & SOURCE_NOTE_FOREIGN, 0);
	ck_assert_int_ge(files("lo")->fd[COUNTER_RX_BYTES], 0); /* sysfs files held instead */
}
END_TEST

START_TEST(netlink_given_up_mid_run)
{
	mirror_own_interfaces();
	start_netlink();
	ck_assert_int_eq(monitor_source(&mon), SOURCE_NETLINK);
	monitor_tick(&mon, 0.0);
	fake_iface_add("kn-extra0", "up", 0x1003, 0, 0); /* sysfs now lists one more than netlink */
	fake_iface_write("kn-extra0", "ifindex", "9999\n");
	ck_assert_int_eq(monitor_rescan(&mon), 0);
	ck_assert_int_eq(monitor_source(&mon), SOURCE_SYSFS);
	ck_assert_uint_ne(mon.src.notes & SOURCE_NOTE_FOREIGN, 0);
	monitor_tick(&mon, 1.0);
	assert_no_value("lo"); /* netlink's baseline is not sysfs's */
	fake_iface_set("lo", MIB, 0);
	monitor_tick(&mon, 1.0);
	assert_rate("lo", 1.0, 0.0); /* the fake tree's counters, read from sysfs */
}
END_TEST

/* The source auto's cost model picks for selected of listed interfaces at 50 Hz, all ways open. */
static enum source_kind model_pick(size_t selected, size_t listed)
{
	unsigned all = COST_BIT(COST_SYSFS) | COST_BIT(COST_DUMP) | COST_BIT(COST_GET) | COST_BIT(COST_PROCFS);
	enum cost_way way = cost_cheapest(all, selected, listed, 20000.0);
	return way == COST_SYSFS ? SOURCE_SYSFS : way == COST_PROCFS ? SOURCE_PROCFS : SOURCE_NETLINK;
}

/* Run ip(8) with the arguments in cmd, quietly; whether it succeeded. */
static bool ip_link(const char *cmd)
{
	char line[160];
	snprintf(line, sizeof line, "ip link %s >/dev/null 2>&1", cmd);
	return system(line) == 0;
}

/* Add veth pairs kn-ta0/kn-tb0 .. kn-ta3/kn-tb3; whether ip(8) made them all. */
static bool add_pairs(void)
{
	for (int i = 0; i < 4; i++) {
		char cmd[64];
		snprintf(cmd, sizeof cmd, "add kn-ta%d type veth peer name kn-tb%d", i, i);
		if (!ip_link(cmd))
			return false;
	}
	return true;
}

/* Auto prices each selection, opens netlink only when the model says so, and decides again at
 * every rescan as the selection changes (in a network namespace of its own, with veth pairs):
 * netlink, sysfs, netlink again, pattern selecting the four pairs; test names the case in the
 * message when it cannot run. */
static void auto_follows(const char *test, const char *pattern)
{
	/* The scenario needs the model to choose differently for its two selections. */
	ck_assert_int_eq(model_pick(8, 9), SOURCE_NETLINK);
	ck_assert_int_eq(model_pick(0, 1), SOURCE_SYSFS);
	if (unshare(CLONE_NEWNET) != 0 || !add_pairs()) {
		printf("# %s: needs root and ip(8); not checked here\n", test);
		return;
	}
	mirror_interfaces();
	const char *pair[] = {pattern, NULL};
	char err[IFACE_ERR_MAX] = "";
	ck_assert_msg(iface_selector_init(&sel, pair, 1, err) == 0, "%s", err);
	ck_assert_msg(monitor_init(&mon, root, &sel, err) == 0, "%s", err);
	monitor_set_interval(&mon, 20000);
	ck_assert_int_eq(monitor_use_source(&mon, SOURCE_AUTO, false, NULL), 0);
	ck_assert_int_eq(monitor_source(&mon), SOURCE_SYSFS); /* nothing listed yet: the files */
	ck_assert_int_eq(monitor_rescan(&mon), 0);
	ck_assert_int_eq(monitor_source(&mon), SOURCE_NETLINK); /* eight of lo and the pairs */
	ck_assert(mon.src.proven);
	for (int i = 0; i < 4; i++) {
		char cmd[32], name[16];
		snprintf(cmd, sizeof cmd, "del kn-ta%d", i);
		ck_assert(ip_link(cmd));
		snprintf(name, sizeof name, "kn-ta%d", i);
		fake_iface_remove(name);
		snprintf(name, sizeof name, "kn-tb%d", i);
		fake_iface_remove(name);
	}
	ck_assert_int_eq(monitor_rescan(&mon), 0);
	ck_assert_int_eq(monitor_source(&mon), SOURCE_SYSFS); /* nothing selected is present */
	ck_assert(add_pairs());
	mirror_interfaces(); /* the pairs are back, with new ifindexes */
	ck_assert_int_eq(monitor_rescan(&mon), 0);
	ck_assert_int_eq(monitor_source(&mon), SOURCE_NETLINK); /* proven before: the baselines stay */
	ck_assert_uint_eq(mon.src.notes & (SOURCE_NOTE_FOREIGN | SOURCE_NOTE_REFUSED), 0);
}

START_TEST(auto_follows_the_cost_model)
{
	auto_follows("auto_follows_the_cost_model", "kn-t.*");
}
END_TEST

/* The same by plain names: when the pairs come back, sysfs reads and the names could be looked
 * up, but the rescan must list, so that auto prices them on a fresh count (on the stale one it
 * chose procfs) and netlink checks its links against it. */
START_TEST(auto_follows_plain_names)
{
	auto_follows("auto_follows_plain_names", "kn-ta0|kn-ta1|kn-ta2|kn-ta3|kn-tb0|kn-tb1|kn-tb2|kn-tb3");
}
END_TEST

/* Auto never opens netlink for a selection the model gives to the files: one interface at 50 Hz. */
START_TEST(auto_reads_one_interface_from_sysfs)
{
	mirror_own_interfaces();
	const char *one[] = {"lo", NULL};
	char err[IFACE_ERR_MAX] = "";
	ck_assert_msg(iface_selector_init(&sel, one, 1, err) == 0, "%s", err);
	ck_assert_msg(monitor_init(&mon, root, &sel, err) == 0, "%s", err);
	monitor_set_interval(&mon, 20000);
	ck_assert_int_eq(monitor_use_source(&mon, SOURCE_AUTO, false, NULL), 0);
	ck_assert_int_eq(monitor_rescan(&mon), 0);
	ck_assert_int_eq(model_pick(1, mon.listed), SOURCE_SYSFS); /* what the scenario needs */
	ck_assert_int_eq(monitor_source(&mon), SOURCE_SYSFS);
	ck_assert(!mon.src.proven); /* netlink was never opened */
	ck_assert_int_ge(files("lo")->fd[COUNTER_RX_BYTES], 0);
}
END_TEST

/* Add fn as a tcase of its own, with a fake tree around it. */
static void add(Suite *s, const char *name, const TTest *fn)
{
	testutil_add(s, name, fn, tree_setup, tree_teardown);
}

/* Add a case that needs the kernel's rtnetlink statistics; a build without netlink leaves it
 * out and says so in a TAP comment. */
static void add_rtnetlink(Suite *s, const char *name, const TTest *fn)
{
#ifdef KN_HAVE_NETLINK
	testutil_add_tagged(s, name, fn, tree_setup, tree_teardown, TESTUTIL_TAG_RTNETLINK);
#else
	(void)s;
	(void)fn;
	printf("# %s left out: this build has no netlink source\n", name);
	fflush(stdout); /* before check forks its cases */
#endif
}

/* The monitor suite. */
static Suite *monitor_suite(void)
{
	Suite *s = suite_create("monitor");
	add(s, "initial_rescan_sorted", initial_rescan_sorted);
	add(s, "regex_selection", regex_selection);
	add(s, "baseline_tick_has_no_value", baseline_tick_has_no_value);
	add(s, "tick_rates", tick_rates);
	add(s, "vanished_then_back", vanished_then_back);
	add(s, "name_moves_to_another_device", name_moves_to_another_device);
	add(s, "regular_file_is_no_interface", regular_file_is_no_interface);
	add(s, "rescan_looks_up_plain_names", rescan_looks_up_plain_names);
	add(s, "rescan_lists_for_a_regex", rescan_lists_for_a_regex);
	add(s, "unreadable_counter", unreadable_counter);
	add(s, "counter_backwards", counter_backwards);
	add(s, "counters_at_max", counters_at_max);
	add(s, "speed_read_at_rescan", speed_read_at_rescan);
	add(s, "speed_not_read_without_util", speed_not_read_without_util);
	add(s, "missing_counter_files_are_nan_alone", missing_counter_files_are_nan_alone);
	add(s, "unreadable_missed_gives_no_drops", unreadable_missed_gives_no_drops);
	add(s, "unopenable_missed_gives_no_drops", unopenable_missed_gives_no_drops);
	add(s, "total_none_valid", total_none_valid);
	add(s, "zero_dt_is_no_value", zero_dt_is_no_value);
	add(s, "newcomer_added_sorted", newcomer_added_sorted);
	add(s, "rescan_idempotent", rescan_idempotent);
	add(s, "many_interfaces", many_interfaces);
	add(s, "init_unreadable", init_unreadable);
	add(s, "fd_limit_raised_as_needed", fd_limit_raised_as_needed);
	add(s, "fd_limit_hard_reads_per_tick", fd_limit_hard_reads_per_tick);
	add_rtnetlink(s, "netlink_kept_while_sysfs_agrees", netlink_kept_while_sysfs_agrees);
	add_rtnetlink(s, "netlink_given_up_when_an_ifindex_differs", netlink_given_up_when_an_ifindex_differs);
	add_rtnetlink(s, "netlink_given_up_mid_run", netlink_given_up_mid_run);
	add_rtnetlink(s, "auto_follows_the_cost_model", auto_follows_the_cost_model);
	add_rtnetlink(s, "auto_follows_plain_names", auto_follows_plain_names);
	add_rtnetlink(s, "auto_reads_one_interface_from_sysfs", auto_reads_one_interface_from_sysfs);
	return s;
}

int main(void)
{
	return testutil_run(monitor_suite());
}
