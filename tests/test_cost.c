/* SPDX-License-Identifier: Apache-2.0 */
/* test_cost: auto's cost model picks the ways bench/matrix.sh measured cheapest. */
#include "config.h"

#include "cost.h"
#include "testutil.h"

#include <check.h>

#define ALL (COST_BIT(COST_SYSFS) | COST_BIT(COST_DUMP) | COST_BIT(COST_GET) | COST_BIT(COST_PROCFS))

START_TEST(costs_grow_with_what_they_read)
{
	ck_assert(cost_ns(COST_SYSFS, 2, 100) > cost_ns(COST_SYSFS, 1, 100));
	ck_assert(cost_ns(COST_SYSFS, 1, 1000) == cost_ns(COST_SYSFS, 1, 2)); /* the others are not read */
	ck_assert(cost_ns(COST_DUMP, 1, 1000) > cost_ns(COST_DUMP, 1, 2));
	ck_assert(cost_ns(COST_DUMP, 1000, 1000) == cost_ns(COST_DUMP, 1, 1000)); /* every link anyway */
	ck_assert(cost_ns(COST_GET, 65, 1000) > cost_ns(COST_GET, 64, 1000) + 1000.0); /* a second batch */
	ck_assert(cost_ns(COST_PROCFS, 1, 1000) > cost_ns(COST_DUMP, 1, 1000)); /* formatting costs more */
}
END_TEST

START_TEST(one_of_many_is_not_a_dump)
{
	enum cost_way way = cost_cheapest(ALL, 1, 257, 1000.0);
	ck_assert(way == COST_SYSFS || way == COST_GET);
	way = cost_cheapest(ALL, 1, 1025, 1000.0);
	ck_assert(way == COST_SYSFS || way == COST_GET);
	ck_assert_int_eq(cost_cheapest(ALL, 16, 1025, 1000.0), COST_GET); /* sixteen: requests beat 32 preads */
}
END_TEST

START_TEST(all_of_many_is_a_dump)
{
	ck_assert_int_eq(cost_cheapest(ALL, 256, 257, 1000.0), COST_DUMP);
	ck_assert_int_eq(cost_cheapest(ALL, 1024, 1025, 1000.0), COST_DUMP);
	enum cost_way way = cost_cheapest(ALL, 16, 17, 1000.0);
	ck_assert(way == COST_DUMP || way == COST_GET); /* netlink: they tie where all are asked for */
	ck_assert_int_eq(cost_cheapest(ALL, 2, 3, 1000.0), COST_SYSFS); /* a few: two preads each */
}
END_TEST

START_TEST(mask_limits_the_choice)
{
	ck_assert_int_eq(cost_cheapest(COST_BIT(COST_SYSFS), 1024, 1025, 1000.0), COST_SYSFS);
	unsigned files = COST_BIT(COST_SYSFS) | COST_BIT(COST_PROCFS);
	ck_assert_int_eq(cost_cheapest(files, 1024, 1025, 1000.0), COST_PROCFS); /* one file beats 2048 */
	ck_assert_int_eq(cost_cheapest(files, 1, 1025, 1000.0), COST_SYSFS);
	ck_assert(COST_HYSTERESIS > 1.0);
}
END_TEST

START_TEST(proof_weighs_on_slow_rates)
{
	ck_assert(cost_proof_ns(1025, 20000.0) > cost_proof_ns(1025, 1000.0)); /* fewer ticks per rescan */
	ck_assert(cost_proof_ns(1025, 2e6) == cost_proof_ns(1025, 1e6));        /* one rescan per tick */
	ck_assert_int_eq(cost_cheapest(ALL, 1, 1025, 20000.0), COST_SYSFS);    /* no link dump for one */
	ck_assert_int_eq(cost_cheapest(ALL, 1024, 1025, 20000.0), COST_DUMP);
}
END_TEST

START_TEST(sysfs_scales_with_its_files)
{
	ck_assert(cost_ns_files(COST_SYSFS, 10, 20, 4) == 2.0 * cost_ns(COST_SYSFS, 10, 20)); /* -m packets */
	ck_assert(cost_ns_files(COST_SYSFS, 10, 20, COST_SYSFS_FILES) == cost_ns(COST_SYSFS, 10, 20));
	for (int way = COST_DUMP; way < COST_WAYS; way++) /* the others read every counter anyway */
		ck_assert(cost_ns_files((enum cost_way)way, 10, 20, 9) == cost_ns((enum cost_way)way, 10, 20));
	unsigned files = COST_BIT(COST_SYSFS) | COST_BIT(COST_PROCFS);
	ck_assert_int_eq(cost_cheapest_files(files, 4, 4, 20000.0, 2), COST_SYSFS);
	ck_assert_int_eq(cost_cheapest_files(files, 4, 4, 20000.0, 8), COST_PROCFS); /* eight files cost more */
	ck_assert_int_eq(cost_cheapest(files, 4, 4, 20000.0), COST_SYSFS);
}
END_TEST

/* The cost suite. */
static Suite *cost_suite(void)
{
	Suite *s = suite_create("cost");
	testutil_add(s, "costs_grow_with_what_they_read", costs_grow_with_what_they_read, NULL, NULL);
	testutil_add(s, "one_of_many_is_not_a_dump", one_of_many_is_not_a_dump, NULL, NULL);
	testutil_add(s, "all_of_many_is_a_dump", all_of_many_is_a_dump, NULL, NULL);
	testutil_add(s, "mask_limits_the_choice", mask_limits_the_choice, NULL, NULL);
	testutil_add(s, "proof_weighs_on_slow_rates", proof_weighs_on_slow_rates, NULL, NULL);
	testutil_add(s, "sysfs_scales_with_its_files", sysfs_scales_with_its_files, NULL, NULL);
	return s;
}

int main(void)
{
	return testutil_run(cost_suite());
}
