/* SPDX-License-Identifier: Apache-2.0 */
/* test_rdma: RDMA port discovery, counter kinds, 4-octet scaling, 32-bit saturation, hot-plug. */
#include "config.h"

#include "rdma.h"
#include "testutil.h"

#include <check.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define MIB 1048576.0
#define RCV "counters/port_rcv_data"
#define XMIT "counters/port_xmit_data"

static const char *root;
static struct iface_selector sel;
static struct rdma_set set;

/* Fixture: an empty fake tree (class/net only); the set starts in start(). */
static void tree_setup(void)
{
	root = fake_sysfs_new();
	sel = (struct iface_selector){0};
	set = (struct rdma_set){0};
}

/* Fixture: free the set, the selector and the tree. */
static void tree_teardown(void)
{
	rdma_free(&set);
	iface_selector_free(&sel);
	fake_sysfs_remove();
}

/* Start with the NULL-terminated patterns (NULL: every port) and rescan once. */
static void start(const char *const *patterns)
{
	size_t n = 0;
	while (patterns != NULL && patterns[n] != NULL)
		n++;
	char err[IFACE_ERR_MAX] = "";
	if (patterns != NULL)
		ck_assert_msg(iface_selector_init_named(&sel, patterns, n, "RDMA", err) == 0, "%s", err);
	rdma_init(&set, root, patterns != NULL ? &sel : NULL);
	ck_assert_int_eq(rdma_rescan(&set), 0);
}

/* The monitored names, comma-separated, in table order (static buffer). */
static const char *names(void)
{
	static char text[1024];
	text[0] = '\0';
	for (size_t i = 0; i < rdma_count(&set); i++) {
		if (i > 0)
			strcat(text, ",");
		strcat(text, rdma_name(&set, i));
	}
	return text;
}

/* The port named name (asserted to exist). */
static const struct rdma_port *port(const char *name)
{
	for (size_t i = 0; i < set.count; i++)
		if (strcmp(set.ports[i].name, name) == 0)
			return &set.ports[i];
	ck_abort_msg("no port %s (have %s)", name, names());
	return NULL;
}

/* Add a port with standard counters rcv/xmit (in 4-octet words). */
static void add_standard(const char *dev, const char *num, uint64_t rcv, uint64_t xmit)
{
	fake_rdma_set(dev, num, RCV, rcv);
	fake_rdma_set(dev, num, XMIT, xmit);
}

/* Assert that port name has a rate of exactly rx_bytes and tx_bytes per second (dt 1 s). */
static void expect_rate(const char *name, uint64_t rx_bytes, uint64_t tx_bytes)
{
	const struct rdma_port *p = port(name);
	ck_assert_msg(p->valid, "%s has no value", name);
	ck_assert_msg(p->rate.field[FIELD_RX] == (double)rx_bytes / MIB, "%s rx %.17g, want %.17g", name,
		      p->rate.field[FIELD_RX], (double)rx_bytes / MIB);
	ck_assert_msg(p->rate.field[FIELD_TX] == (double)tx_bytes / MIB, "%s tx %.17g, want %.17g", name,
		      p->rate.field[FIELD_TX], (double)tx_bytes / MIB);
	for (int f = FIELD_RX_PACKETS; f < FIELD_KINDS; f++) /* an RDMA port has rx and tx alone */
		ck_assert_msg(isnan(p->rate.field[f]), "%s field %d is %.17g, not NaN", name, f, p->rate.field[f]);
}

/* No class/infiniband at all (no RDMA stack): no port and no error. */
START_TEST(no_class_folder)
{
	start(NULL);
	ck_assert_uint_eq(rdma_count(&set), 0);
	rdma_tick(&set, 1.0);
	ck_assert_int_eq(rdma_rescan(&set), 0);
}
END_TEST

/* Ports are named <dev>:<n> and kept in name order; invalid folder names are no port. */
START_TEST(discovery_sorted)
{
	add_standard("mlx5_1", "2", 0, 0);
	add_standard("mlx5_1", "1", 0, 0);
	add_standard("mlx5_0", "1", 0, 0);
	add_standard("mlx5_0", "x1", 0, 0);          /* not a port number */
	add_standard("mlx5_0", "12345678901", 0, 0); /* more than 10 digits */
	start(NULL);
	ck_assert_str_eq(names(), "mlx5_0:1,mlx5_1:1,mlx5_1:2");
	ck_assert_uint_eq(port("mlx5_0:1")->files.kind, RDMA_COUNTERS_STANDARD);
}
END_TEST

/* The regex must match the whole group name, as -d does for interfaces. */
START_TEST(regex_whole_group_name)
{
	add_standard("mlx5_0", "1", 0, 0);
	add_standard("mlx5_1", "1", 0, 0);
	add_standard("mlx5_1", "2", 0, 0);
	add_standard("bnxt_re0", "1", 0, 0);
	start((const char *const[]){"mlx5_1:.*", "bnxt_re\\d:1", "mlx5_0", NULL});
	ck_assert_str_eq(names(), "bnxt_re0:1,mlx5_1:1,mlx5_1:2");
}
END_TEST

/* An IB device name may be 63 characters long; the group name keeps all of it. */
START_TEST(long_device_name)
{
	char dev[RDMA_DEVICE_NAME_MAX + 1], want[RDMA_GROUP_NAME_MAX + 16];
	memset(dev, 'd', RDMA_DEVICE_NAME_MAX - 1);
	dev[RDMA_DEVICE_NAME_MAX - 1] = '\0';
	add_standard(dev, "4294967295", 5, 6);
	snprintf(want, sizeof want, "%s:4294967295", dev);
	char longer[RDMA_DEVICE_NAME_MAX + 1];
	memset(longer, 'e', RDMA_DEVICE_NAME_MAX);
	longer[RDMA_DEVICE_NAME_MAX] = '\0';
	add_standard(longer, "1", 5, 6); /* 64 characters: no IB device can have that name */
	start(NULL);
	ck_assert_str_eq(names(), want);
	ck_assert_uint_eq(strlen(rdma_name(&set, 0)), RDMA_GROUP_NAME_MAX - 1);
	rdma_tick(&set, 0.0);
	fake_rdma_set(dev, "4294967295", RCV, 6);
	rdma_tick(&set, 1.0);
	expect_rate(want, 4, 0);
}
END_TEST

/* 64-bit standard counters: 4-octet words times four, exactly; the first read is a baseline. */
START_TEST(standard_64bit_scaled)
{
	const uint64_t rcv = UINT64_C(5000000000), xmit = UINT64_C(7000000000);
	add_standard("mlx5_0", "1", rcv, xmit);
	start(NULL);
	rdma_tick(&set, 0.0);
	ck_assert(!port("mlx5_0:1")->valid);
	fake_rdma_set("mlx5_0", "1", RCV, rcv + 1000);
	fake_rdma_set("mlx5_0", "1", XMIT, xmit + 262144);
	rdma_tick(&set, 1.0);
	expect_rate("mlx5_0:1", 4000, 1048576);
	ck_assert(port("mlx5_0:1")->wide[0] && port("mlx5_0:1")->wide[1]);
}
END_TEST

/* A legacy 32-bit counter at 0xFFFFFFFF gives no value (and a note) for as long as it stays
 * there, the tick that reached it included; a reset starts a new baseline. */
START_TEST(saturated_32bit)
{
	add_standard("mthca0", "1", 0xFFFFFF00, 100);
	start(NULL);
	rdma_tick(&set, 0.0);
	fake_rdma_set("mthca0", "1", RCV, 0xFFFFFFF0);
	rdma_tick(&set, 1.0);
	expect_rate("mthca0:1", 0xF0 * 4, 0);
	fake_rdma_set("mthca0", "1", RCV, 0xFFFFFFFF); /* it stopped somewhere in this tick */
	rdma_tick(&set, 1.0);
	ck_assert(!port("mthca0:1")->valid);
	ck_assert_uint_eq(port("mthca0:1")->notes & RDMA_NOTE_SATURATED, RDMA_NOTE_SATURATED);
	for (int i = 0; i < 3; i++) { /* tx still moves: the port has no value all the same */
		fake_rdma_set("mthca0", "1", XMIT, 200 + (uint64_t)i);
		rdma_tick(&set, 1.0);
		ck_assert(!port("mthca0:1")->valid);
	}
	rdma_warn(&set);
	ck_assert_uint_eq(port("mthca0:1")->noted & RDMA_NOTE_SATURATED, RDMA_NOTE_SATURATED);
	fake_rdma_set("mthca0", "1", RCV, 10); /* perfquery -R */
	rdma_tick(&set, 1.0);
	ck_assert(!port("mthca0:1")->valid);
	fake_rdma_set("mthca0", "1", RCV, 20);
	rdma_tick(&set, 1.0);
	expect_rate("mthca0:1", 40, 0);
}
END_TEST

/* A saturated transmit counter alone is enough for no value. */
START_TEST(saturated_32bit_tx)
{
	add_standard("qib0", "1", 5, 0xFFFFFFFF);
	start(NULL);
	rdma_tick(&set, 0.0);
	fake_rdma_set("qib0", "1", RCV, 6);
	rdma_tick(&set, 1.0);
	ck_assert(!port("qib0:1")->valid);
	ck_assert_uint_eq(port("qib0:1")->notes, RDMA_NOTE_SATURATED);
}
END_TEST

/* A counter once seen above 32 bits is 64 bits wide: 0xFFFFFFFF is then an ordinary value. */
START_TEST(wide_counter_never_saturated)
{
	add_standard("mlx5_0", "1", UINT64_C(0x100000000), 0);
	start(NULL);
	rdma_tick(&set, 0.0);
	fake_rdma_set("mlx5_0", "1", RCV, 0xFFFFFFFF); /* went back (a reset): no value this tick */
	rdma_tick(&set, 1.0);
	ck_assert(!port("mlx5_0:1")->valid);
	fake_rdma_set("mlx5_0", "1", RCV, UINT64_C(0x100000001));
	rdma_tick(&set, 1.0);
	expect_rate("mlx5_0:1", 8, 0);
	ck_assert_uint_eq(port("mlx5_0:1")->notes, 0);
}
END_TEST

/* A counter that goes down gives no value for that tick; the next read is a new baseline. */
START_TEST(counter_backwards)
{
	add_standard("mlx5_0", "1", 1000, 1000);
	start(NULL);
	rdma_tick(&set, 0.0);
	fake_rdma_set("mlx5_0", "1", RCV, 10);
	rdma_tick(&set, 1.0);
	ck_assert(!port("mlx5_0:1")->valid);
	fake_rdma_set("mlx5_0", "1", RCV, 11);
	fake_rdma_set("mlx5_0", "1", XMIT, 1002);
	rdma_tick(&set, 1.0);
	expect_rate("mlx5_0:1", 4, 8);
}
END_TEST

/* AMD ionic: empty standard files; hw_counters ucast plus mcast where present, in bytes. */
START_TEST(ionic_hw_counters)
{
	fake_rdma_write("ionic_0", "1", RCV, "");
	fake_rdma_write("ionic_0", "1", XMIT, "");
	fake_rdma_set("ionic_0", "1", "hw_counters/rx_rdma_ucast_bytes", 1000);
	fake_rdma_set("ionic_0", "1", "hw_counters/rx_rdma_mcast_bytes", 50);
	fake_rdma_set("ionic_0", "1", "hw_counters/tx_rdma_ucast_bytes", 2000);
	fake_rdma_write("ionic_0", "1", "hw_counters/tx_rdma_mcast_bytes", ""); /* says nothing: left out */
	fake_rdma_set("ionic_0", "1", "hw_counters/rx_bytes", 1); /* not ionic's: never read */
	start(NULL);
	ck_assert_uint_eq(port("ionic_0:1")->files.kind, RDMA_COUNTERS_IONIC);
	rdma_tick(&set, 0.0);
	fake_rdma_set("ionic_0", "1", "hw_counters/rx_rdma_ucast_bytes", 1300);
	fake_rdma_set("ionic_0", "1", "hw_counters/rx_rdma_mcast_bytes", 57);
	fake_rdma_set("ionic_0", "1", "hw_counters/tx_rdma_ucast_bytes", 2011);
	fake_rdma_set("ionic_0", "1", "hw_counters/rx_bytes", 99999);
	rdma_tick(&set, 1.0);
	expect_rate("ionic_0:1", 307, 11);
}
END_TEST

/* Broadcom bnxt_re: no standard files; hw_counters rx_bytes and tx_bytes, in bytes. */
START_TEST(bnxt_hw_counters)
{
	fake_rdma_set("bnxt_re0", "1", "hw_counters/rx_bytes", 123456789);
	fake_rdma_set("bnxt_re0", "1", "hw_counters/tx_bytes", 5);
	fake_rdma_set("bnxt_re0", "1", "hw_counters/active_qps", 3);
	start(NULL);
	ck_assert_uint_eq(port("bnxt_re0:1")->files.kind, RDMA_COUNTERS_BNXT);
	rdma_tick(&set, 0.0);
	fake_rdma_set("bnxt_re0", "1", "hw_counters/rx_bytes", 123456789 + 1048576);
	fake_rdma_set("bnxt_re0", "1", "hw_counters/tx_bytes", 9);
	rdma_tick(&set, 2.0);
	ck_assert(port("bnxt_re0:1")->valid);
	ck_assert(port("bnxt_re0:1")->rate.field[FIELD_RX] == 0.5);
	ck_assert(port("bnxt_re0:1")->rate.field[FIELD_TX] == 2.0 / MIB);
}
END_TEST

/* Standard files take precedence where they read a number, even with hw_counters present. */
START_TEST(standard_preferred)
{
	add_standard("bnxt_re1", "1", 1, 1);
	fake_rdma_set("bnxt_re1", "1", "hw_counters/rx_bytes", 1);
	fake_rdma_set("bnxt_re1", "1", "hw_counters/tx_bytes", 1);
	start(NULL);
	ck_assert_uint_eq(port("bnxt_re1:1")->files.kind, RDMA_COUNTERS_STANDARD);
}
END_TEST

/* A port without byte counters has no value and a note; once they appear, a rescan opens them. */
START_TEST(no_counters_then_some)
{
	fake_rdma_write("rxe0", "1", "state", "4: ACTIVE\n");
	start(NULL);
	ck_assert_str_eq(names(), "rxe0:1");
	ck_assert_uint_eq(port("rxe0:1")->files.kind, RDMA_COUNTERS_NONE);
	ck_assert_uint_eq(port("rxe0:1")->notes, RDMA_NOTE_NO_COUNTERS);
	rdma_tick(&set, 0.0);
	rdma_tick(&set, 1.0);
	ck_assert(!port("rxe0:1")->valid);
	add_standard("rxe0", "1", 7, 7);
	ck_assert_int_eq(rdma_rescan(&set), 0);
	rdma_tick(&set, 1.0);
	ck_assert(!port("rxe0:1")->valid); /* the baseline */
	fake_rdma_set("rxe0", "1", RCV, 8);
	rdma_tick(&set, 1.0);
	expect_rate("rxe0:1", 4, 0);
}
END_TEST

/* Standard files that turn empty: no value, then the next rescan chooses the hw_counters. */
START_TEST(files_chosen_again_after_failure)
{
	add_standard("bnxt_re0", "1", 1, 1);
	fake_rdma_set("bnxt_re0", "1", "hw_counters/rx_bytes", 100);
	fake_rdma_set("bnxt_re0", "1", "hw_counters/tx_bytes", 100);
	start(NULL);
	rdma_tick(&set, 0.0);
	fake_rdma_write("bnxt_re0", "1", RCV, "");
	rdma_tick(&set, 1.0);
	ck_assert(!port("bnxt_re0:1")->valid);
	ck_assert(port("bnxt_re0:1")->failed);
	ck_assert_int_eq(rdma_rescan(&set), 0);
	ck_assert_uint_eq(port("bnxt_re0:1")->files.kind, RDMA_COUNTERS_BNXT);
	rdma_tick(&set, 1.0);
	fake_rdma_set("bnxt_re0", "1", "hw_counters/rx_bytes", 103);
	rdma_tick(&set, 1.0);
	expect_rate("bnxt_re0:1", 3, 0);
}
END_TEST

/* A vanished port has no value and keeps its place; a newcomer gets the next id, in name order. */
START_TEST(vanish_and_appear)
{
	add_standard("mlx5_0", "1", 100, 100);
	add_standard("mlx5_2", "1", 100, 100);
	start(NULL);
	rdma_tick(&set, 0.0);
	fake_rdma_remove("mlx5_0");
	add_standard("mlx5_1", "1", 500, 500);
	ck_assert_int_eq(rdma_rescan(&set), 0);
	ck_assert_str_eq(names(), "mlx5_0:1,mlx5_1:1,mlx5_2:1");
	ck_assert_uint_eq(port("mlx5_1:1")->id, 2);
	ck_assert_uint_eq(port("mlx5_0:1")->files.kind, RDMA_COUNTERS_NONE);
	fake_rdma_set("mlx5_2", "1", RCV, 101);
	fake_rdma_set("mlx5_1", "1", RCV, 501);
	rdma_tick(&set, 1.0);
	ck_assert(!port("mlx5_0:1")->valid);
	ck_assert(!port("mlx5_1:1")->valid); /* its baseline */
	expect_rate("mlx5_2:1", 4, 0);
	add_standard("mlx5_0", "1", 5, 5); /* back, as a new device: counters from zero */
	ck_assert_int_eq(rdma_rescan(&set), 0);
	rdma_tick(&set, 1.0);
	ck_assert(!port("mlx5_0:1")->valid);
	fake_rdma_set("mlx5_0", "1", XMIT, 6);
	fake_rdma_set("mlx5_1", "1", RCV, 503);
	rdma_tick(&set, 1.0);
	expect_rate("mlx5_0:1", 0, 4);
	expect_rate("mlx5_1:1", 8, 0);
	ck_assert_uint_eq(rdma_count(&set), 3);
}
END_TEST

/* Malformed counter text is no value, never a number made up. */
START_TEST(malformed_is_no_value)
{
	add_standard("mlx5_0", "1", 1, 1);
	start(NULL);
	rdma_tick(&set, 0.0);
	fake_rdma_write("mlx5_0", "1", XMIT, "12x\n");
	rdma_tick(&set, 1.0);
	ck_assert(!port("mlx5_0:1")->valid);
	ck_assert(!port("mlx5_0:1")->have_prev);
}
END_TEST

/* rdma_files_read() refuses 64-bit word counts whose bytes do not fit in 64 bits. */
START_TEST(huge_word_count)
{
	add_standard("mlx5_0", "1", UINT64_MAX / 4 + 1, 1);
	start(NULL);
	bool wide[2] = {false, false};
	struct counter_set out;
	ck_assert_int_eq(rdma_files_read(&port("mlx5_0:1")->files, wide, &out), -ERANGE);
}
END_TEST

/* A rescan that lists the same ports keeps their files and baselines. */
START_TEST(rescan_keeps_baselines)
{
	add_standard("mlx5_0", "1", 1, 1);
	start(NULL);
	rdma_tick(&set, 0.0);
	int fd = port("mlx5_0:1")->files.fd[0][0];
	ck_assert_int_eq(rdma_rescan(&set), 0);
	ck_assert_int_eq(port("mlx5_0:1")->files.fd[0][0], fd);
	fake_rdma_set("mlx5_0", "1", RCV, 2);
	rdma_tick(&set, 1.0);
	expect_rate("mlx5_0:1", 4, 0);
}
END_TEST

/* Add a case with the tree fixture. */
static void add(Suite *s, const char *name, const TTest *fn)
{
	testutil_add(s, name, fn, tree_setup, tree_teardown);
}

/* The rdma suite. */
static Suite *rdma_suite(void)
{
	Suite *s = suite_create("rdma");
	add(s, "no_class_folder", no_class_folder);
	add(s, "discovery_sorted", discovery_sorted);
	add(s, "regex_whole_group_name", regex_whole_group_name);
	add(s, "long_device_name", long_device_name);
	add(s, "standard_64bit_scaled", standard_64bit_scaled);
	add(s, "saturated_32bit", saturated_32bit);
	add(s, "saturated_32bit_tx", saturated_32bit_tx);
	add(s, "wide_counter_never_saturated", wide_counter_never_saturated);
	add(s, "counter_backwards", counter_backwards);
	add(s, "ionic_hw_counters", ionic_hw_counters);
	add(s, "bnxt_hw_counters", bnxt_hw_counters);
	add(s, "standard_preferred", standard_preferred);
	add(s, "no_counters_then_some", no_counters_then_some);
	add(s, "files_chosen_again_after_failure", files_chosen_again_after_failure);
	add(s, "vanish_and_appear", vanish_and_appear);
	add(s, "malformed_is_no_value", malformed_is_no_value);
	add(s, "huge_word_count", huge_word_count);
	add(s, "rescan_keeps_baselines", rescan_keeps_baselines);
	return s;
}

int main(void)
{
	return testutil_run(rdma_suite());
}
