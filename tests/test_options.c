/* SPDX-License-Identifier: Apache-2.0 */
/* test_options: every spelling of every option, every invalid value, the error messages. */
#include "config.h"

#include "options.h"

#include "testutil.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ARGS 16

/* One parse: the argv it was given (owned copies) and what came out. */
static struct {
	char *argv[MAX_ARGS + 2];
	int argc;
	struct options opts;
	char err[OPTIONS_ERR_MAX];
} P;

/* Free the previous parse (fixture teardown, and before every parse). */
static void parsed_free(void)
{
	options_free(&P.opts);
	for (int i = 0; i < P.argc; i++)
		free(P.argv[i]);
	P.argc = 0;
}

/* Copy s or abort: the test itself cannot go on without it. */
static char *xstrdup(const char *s)
{
	char *copy = strdup(s);
	if (copy == NULL)
		abort();
	return copy;
}

/* Parse the program name followed by the NULL-terminated args into P. */
static enum options_action parse(const char *const *args)
{
	parsed_free();
	P.argv[P.argc++] = xstrdup("kvikio_nic_nsys_plugin");
	for (size_t i = 0; args[i] != NULL && i < MAX_ARGS; i++)
		P.argv[P.argc++] = xstrdup(args[i]);
	P.argv[P.argc] = NULL;
	memset(P.err, 'x', sizeof P.err - 1); /* so that a missing message shows */
	P.err[sizeof P.err - 1] = '\0';
	return options_parse(P.argc, P.argv, &P.opts, P.err);
}

#define PARSE(...) parse((const char *const[]){__VA_ARGS__, NULL})

/* Assert that the last parse failed with a one-line message containing needle. */
static void assert_error(enum options_action action, const char *needle)
{
	ck_assert_int_eq(action, OPTIONS_ERROR);
	ck_assert_msg(P.err[0] != '\0' && strchr(P.err, '\n') == NULL, "not one line: '%s'", P.err);
	ck_assert_msg(strstr(P.err, needle) != NULL, "'%s' not in '%s'", needle, P.err);
}

/* Spelling i (0..3; 0..1 without a short option) of an option with its value, as a
 * NULL-terminated token list: "--opt V", "--opt=V", "-o V", "-oV". */
static const char *const *spellings(const char *shortopt, const char *longopt, const char *value, int i)
{
	static char joined_short[64], joined_long[64];
	static const char *rows[4][3];
	snprintf(joined_short, sizeof joined_short, "%s%s", shortopt ? shortopt : "", value);
	snprintf(joined_long, sizeof joined_long, "%s=%s", longopt, value);
	rows[0][0] = longopt, rows[0][1] = value, rows[0][2] = NULL;
	rows[1][0] = joined_long, rows[1][1] = NULL;
	rows[2][0] = shortopt ? shortopt : longopt, rows[2][1] = value, rows[2][2] = NULL;
	rows[3][0] = shortopt ? joined_short : joined_long, rows[3][1] = NULL;
	return rows[i];
}

START_TEST(defaults)
{
	ck_assert_int_eq(parse((const char *const[]){NULL}), OPTIONS_RUN);
	ck_assert_uint_eq(P.opts.interval_us, 20000);
	ck_assert_ptr_null(P.opts.devices);
	ck_assert_uint_eq(P.opts.ndevices, 0);
	ck_assert(!P.opts.list && !P.opts.print);
	ck_assert_uint_eq(P.opts.count, 0);
	ck_assert_str_eq(P.opts.sysfs, "/sys");
	ck_assert_str_eq(P.err, "");
}
END_TEST

START_TEST(interval_spellings)
{
	ck_assert_int_eq(parse(spellings("-i", "--interval", "12345", _i)), OPTIONS_RUN);
	ck_assert_uint_eq(P.opts.interval_us, 12345);
}
END_TEST

START_TEST(device_spellings)
{
	ck_assert_int_eq(parse(spellings("-d", "--device", "eth\\d+", _i)), OPTIONS_RUN);
	ck_assert_uint_eq(P.opts.ndevices, 1);
	ck_assert_str_eq(P.opts.devices[0], "eth\\d+");
}
END_TEST

START_TEST(count_spellings)
{
	ck_assert_int_eq(parse(spellings("-n", "--count", "7", _i)), OPTIONS_RUN);
	ck_assert_uint_eq(P.opts.count, 7);
}
END_TEST

START_TEST(sysfs_spellings)
{
	ck_assert_int_eq(parse(spellings(NULL, "--sysfs", "/host/sys", _i)), OPTIONS_RUN);
	ck_assert_str_eq(P.opts.sysfs, "/host/sys");
}
END_TEST

START_TEST(source_spellings)
{
	ck_assert_int_eq(parse((const char *const[]){NULL}), OPTIONS_RUN);
	ck_assert_int_eq(P.opts.source, OPTIONS_SOURCE_AUTO);
	ck_assert_int_eq(PARSE("--source", "netlink"), OPTIONS_RUN);
	ck_assert_int_eq(P.opts.source, OPTIONS_SOURCE_NETLINK);
	ck_assert_int_eq(PARSE("--source=sysfs"), OPTIONS_RUN);
	ck_assert_int_eq(P.opts.source, OPTIONS_SOURCE_SYSFS);
	ck_assert_int_eq(PARSE("--source=netlink", "--source", "auto"), OPTIONS_RUN);
	ck_assert_int_eq(P.opts.source, OPTIONS_SOURCE_AUTO);
	ck_assert(!P.opts.fake_tree);
	ck_assert_int_eq(PARSE("--sysfs=/host/sys"), OPTIONS_RUN); /* a fake tree: its files */
	ck_assert_int_eq(P.opts.source, OPTIONS_SOURCE_AUTO);
	ck_assert(P.opts.fake_tree);
	ck_assert_int_eq(PARSE("--source=procfs"), OPTIONS_RUN);
	ck_assert_int_eq(P.opts.source, OPTIONS_SOURCE_PROCFS);
	assert_error(PARSE("--source=proc"), "invalid source 'proc'");
	assert_error(PARSE("--source="), "invalid source ''");
	assert_error(PARSE("--source"), "option '--source' requires a value");
	assert_error(PARSE("--source=netlink", "--sysfs=/x"), "--sysfs");
}
END_TEST

START_TEST(flag_spellings)
{
	ck_assert_int_eq(PARSE("-l"), OPTIONS_RUN);
	ck_assert(P.opts.list && !P.opts.print);
	ck_assert_int_eq(PARSE("--list"), OPTIONS_RUN);
	ck_assert(P.opts.list && !P.opts.print);
	ck_assert_int_eq(PARSE("-p"), OPTIONS_RUN);
	ck_assert(P.opts.print && !P.opts.list);
	ck_assert_int_eq(PARSE("--print"), OPTIONS_RUN);
	ck_assert(P.opts.print && !P.opts.list);
	ck_assert_int_eq(PARSE("-lp"), OPTIONS_RUN);
	ck_assert(P.opts.print && P.opts.list);
	ck_assert_int_eq(PARSE("-pn3"), OPTIONS_RUN);
	ck_assert(P.opts.print);
	ck_assert_uint_eq(P.opts.count, 3);
}
END_TEST

START_TEST(help_and_version)
{
	ck_assert_int_eq(PARSE("-h"), OPTIONS_HELP);
	ck_assert_int_eq(PARSE("--help"), OPTIONS_HELP);
	ck_assert_int_eq(PARSE("-V"), OPTIONS_VERSION);
	ck_assert_int_eq(PARSE("--version"), OPTIONS_VERSION);
	ck_assert_int_eq(PARSE("-i", "5", "--help", "-i", "0"), OPTIONS_HELP); /* exits at once */
}
END_TEST

START_TEST(long_prefixes)
{
	ck_assert_int_eq(PARSE("--int=99", "--dev", "ib0", "--cou", "4", "--sys=/s", "--li", "--pr"),
			 OPTIONS_RUN);
	ck_assert_uint_eq(P.opts.interval_us, 99);
	ck_assert_str_eq(P.opts.devices[0], "ib0");
	ck_assert_uint_eq(P.opts.count, 4);
	ck_assert_str_eq(P.opts.sysfs, "/s");
	ck_assert(P.opts.list && P.opts.print);
}
END_TEST

START_TEST(combined)
{
	ck_assert_int_eq(PARSE("-i1000", "-deth0", "-dib.*", "-n5", "-p", "--sysfs=/x", "-i", "2000"),
			 OPTIONS_RUN);
	ck_assert_uint_eq(P.opts.interval_us, 2000); /* the last one wins */
	ck_assert_uint_eq(P.opts.ndevices, 2);
	ck_assert_str_eq(P.opts.devices[0], "eth0");
	ck_assert_str_eq(P.opts.devices[1], "ib.*");
	ck_assert_uint_eq(P.opts.count, 5);
	ck_assert(P.opts.print && !P.opts.list);
	ck_assert_str_eq(P.opts.sysfs, "/x");
}
END_TEST

START_TEST(interval_bounds)
{
	ck_assert_int_eq(PARSE("-i", "1"), OPTIONS_RUN);
	ck_assert_uint_eq(P.opts.interval_us, 1);
	ck_assert_int_eq(PARSE("-i", "3600000000"), OPTIONS_RUN);
	ck_assert_uint_eq(P.opts.interval_us, 3600000000u);
	ck_assert_int_eq(PARSE("-i", "007"), OPTIONS_RUN); /* decimal, not octal */
	ck_assert_uint_eq(P.opts.interval_us, 7);
}
END_TEST

static const char *const bad_numbers[] = {
	"0", "-1", "1e3", "20ms", "99999999999999999999", "", " 5", "5 ", "+5", "0x10", "1.5", "5\t",
};

START_TEST(interval_invalid)
{
	const char *value = bad_numbers[_i / 2];
	char needle[64];
	snprintf(needle, sizeof needle, "invalid interval '%s'", value);
	assert_error(parse(spellings("-i", "--interval", value, _i % 2)), needle);
	ck_assert_msg(strstr(P.err, "3600000000") != NULL, "the message gives the range: %s", P.err);
	assert_error(PARSE("-i", "3600000001"), "invalid interval '3600000001'");
	assert_error(PARSE("--interval=18446744073709551616"), "invalid interval");
}
END_TEST

START_TEST(count_invalid)
{
	const char *value = bad_numbers[_i / 2];
	char needle[64];
	snprintf(needle, sizeof needle, "invalid count '%s'", value);
	assert_error(parse(spellings("-n", "--count", value, _i % 2)), needle);
}
END_TEST

START_TEST(count_bounds)
{
	ck_assert_int_eq(PARSE("-n", "1"), OPTIONS_RUN);
	ck_assert_uint_eq(P.opts.count, 1);
	ck_assert_int_eq(PARSE("--count", "18446744073709551615"), OPTIONS_RUN);
	ck_assert_uint_eq(P.opts.count, UINT64_MAX);
	assert_error(PARSE("--count", "18446744073709551616"), "invalid count");
}
END_TEST

START_TEST(sysfs_empty)
{
	assert_error(PARSE("--sysfs="), "sysfs");
	assert_error(PARSE("--sysfs", ""), "sysfs");
}
END_TEST

START_TEST(missing_value)
{
	assert_error(PARSE("-i"), "option '-i' requires a value");
	assert_error(PARSE("--interval"), "option '--interval' requires a value");
	assert_error(PARSE("-d"), "option '-d' requires a value");
	assert_error(PARSE("--device"), "option '--device' requires a value");
	assert_error(PARSE("-n"), "option '-n' requires a value");
	assert_error(PARSE("--count"), "option '--count' requires a value");
	assert_error(PARSE("--sysfs"), "option '--sysfs' requires a value");
	assert_error(PARSE("-l", "-pi"), "option '-i' requires a value");
	/* the next token is taken as the value, even if it looks like an option */
	assert_error(PARSE("-i", "--list"), "invalid interval '--list'");
}
END_TEST

START_TEST(unknown_option)
{
	assert_error(PARSE("-x"), "unknown option '-x'");
	assert_error(PARSE("--bogus"), "unknown option '--bogus'");
	assert_error(PARSE("-lx"), "unknown option '-x'");
	assert_error(PARSE("--list", "-px5"), "unknown option '-x'");
	assert_error(PARSE("-I", "20000"), "unknown option '-I'");
	assert_error(PARSE("--list=yes"), "option '--list' takes no value");
	assert_error(PARSE("--help=1"), "option '--help' takes no value");
}
END_TEST

START_TEST(stray_positional)
{
	assert_error(PARSE("eth0"), "unexpected argument 'eth0'");
	assert_error(PARSE("-l", "eth0", "-p"), "unexpected argument 'eth0'");
	assert_error(PARSE("--", "eth0"), "unexpected argument 'eth0'");
	assert_error(PARSE("-"), "unexpected argument '-'");
}
END_TEST

START_TEST(reparse)
{
	/* options_parse() must reset getopt's state: a second parse sees all of its argv */
	assert_error(PARSE("-l", "-x", "-p"), "unknown option '-x'");
	ck_assert_int_eq(PARSE("-n", "2", "-p"), OPTIONS_RUN);
	ck_assert_uint_eq(P.opts.count, 2);
	ck_assert(P.opts.print && !P.opts.list);
	ck_assert_int_eq(PARSE("-lp"), OPTIONS_RUN);
	ck_assert(P.opts.list && P.opts.print);
}
END_TEST

START_TEST(parse_uint)
{
	uint64_t v = 0;
	ck_assert_int_eq(options_parse_uint("5", 5, 5, &v), 0);
	ck_assert_uint_eq(v, 5);
	ck_assert_int_eq(options_parse_uint("4", 5, 9, &v), -1);
	ck_assert_int_eq(options_parse_uint("10", 5, 9, &v), -1);
	ck_assert_int_eq(options_parse_uint(NULL, 0, 9, &v), -1);
	ck_assert_int_eq(options_parse_uint("18446744073709551615", 0, UINT64_MAX, &v), 0);
	ck_assert_uint_eq(v, UINT64_MAX);
	ck_assert_int_eq(options_parse_uint("18446744073709551616", 0, UINT64_MAX, &v), -1);
	ck_assert_int_eq(options_parse_uint("\t5", 0, 9, &v), -1);
}
END_TEST

/* Everything f wrote to a memory stream, by running write(f). */
static char *capture(void (*write)(FILE *f))
{
	char *text = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&text, &size);
	ck_assert_ptr_nonnull(f);
	write(f);
	ck_assert_int_eq(fclose(f), 0);
	return text;
}

START_TEST(metric_spellings)
{
	ck_assert_int_eq(parse(spellings("-m", "--metric", "drops", _i)), OPTIONS_RUN);
	ck_assert_uint_eq(P.opts.metrics.nchosen, 1);
	ck_assert_int_eq(P.opts.metrics.chosen[0], METRIC_DROPS);
	ck_assert_uint_eq(P.opts.metrics.nfields, 4);
	ck_assert_int_eq(P.opts.metrics.fields[2], FIELD_RX_DROPPED);
	ck_assert_int_eq(P.opts.metrics.fields[3], FIELD_TX_DROPPED);
}
END_TEST

START_TEST(metrics_in_order)
{
	ck_assert_int_eq(PARSE("-m", "util", "--metric=errors", "-mpackets", "-m", "drops"), OPTIONS_RUN);
	const struct metric_set *m = &P.opts.metrics;
	static const enum field_kind want[] = {FIELD_RX,        FIELD_TX,        FIELD_RX_UTIL,    FIELD_TX_UTIL,
					       FIELD_RX_ERRORS, FIELD_TX_ERRORS, FIELD_RX_PACKETS, FIELD_TX_PACKETS,
					       FIELD_RX_DROPPED, FIELD_TX_DROPPED};
	ck_assert_uint_eq(m->nfields, 10);
	for (size_t i = 0; i < 10; i++)
		ck_assert_int_eq(m->fields[i], want[i]);
	ck_assert(m->speed);
	ck_assert_uint_eq(m->counters, COUNTER_ALL);
	ck_assert_int_eq(PARSE("-m", "util"), OPTIONS_RUN);
	ck_assert_uint_eq(P.opts.metrics.counters, COUNTER_BYTES); /* util needs the bytes and the speed */
	ck_assert_int_eq(PARSE("-l"), OPTIONS_RUN);
	ck_assert(!metric_set_extended(&P.opts.metrics) && !P.opts.metrics.speed);
	ck_assert_uint_eq(P.opts.metrics.nfields, 2);
	ck_assert_uint_eq(P.opts.metrics.counters, COUNTER_BYTES);
}
END_TEST

START_TEST(metric_invalid)
{
	assert_error(PARSE("-m", "bytes"), "invalid metric 'bytes': expected packets, errors, drops or util");
	assert_error(PARSE("-m", "packets,errors"), "invalid metric 'packets,errors'");
	assert_error(PARSE("--metric="), "invalid metric ''");
	assert_error(PARSE("-m", "UTIL"), "invalid metric 'UTIL'");
	assert_error(PARSE("-m", "drops", "-m", "packets", "--metric=drops"), "metric 'drops' given twice");
	assert_error(PARSE("-m"), "requires a value");
}
END_TEST

START_TEST(help_text)
{
	char *text = capture(options_help);
	const char *expected[] = {"Usage: kvikio_nic_nsys_plugin", "--interval=USEC", "--device=REGEX",
				  "--list", "--print", "--count=N", "--metric=NAME", "--sysfs=DIR", "--source=SOURCE",
				  "--rdma[=REGEX]", "--help", "--version",
				  "Exit status", "KvikIO NIC"};
	for (size_t i = 0; i < sizeof expected / sizeof *expected; i++)
		ck_assert_msg(strstr(text, expected[i]) != NULL, "--help lacks '%s'", expected[i]);
	free(text);
	text = capture(options_usage_hint);
	ck_assert_ptr_nonnull(strstr(text, "Usage: "));
	ck_assert_ptr_nonnull(strstr(text, "--help"));
	ck_assert_ptr_nonnull(strstr(text, "[--rdma[=REGEX]]"));
	free(text);
}
END_TEST

/* --rdma alone selects every port; --rdma=REGEX adds a pattern, repeatably; neither by default. */
START_TEST(rdma_spellings)
{
	ck_assert_int_eq(PARSE("-n", "1"), OPTIONS_RUN);
	ck_assert(!P.opts.rdma && !P.opts.rdma_all);
	ck_assert_int_eq(PARSE("--rdma"), OPTIONS_RUN);
	ck_assert(P.opts.rdma && P.opts.rdma_all);
	ck_assert_uint_eq(P.opts.nrdma_patterns, 0);
	ck_assert_int_eq(PARSE("--rdma=mlx5_\\d+:1", "--rdma=bnxt.*"), OPTIONS_RUN);
	ck_assert(P.opts.rdma && !P.opts.rdma_all);
	ck_assert_uint_eq(P.opts.nrdma_patterns, 2);
	ck_assert_str_eq(P.opts.rdma_patterns[0], "mlx5_\\d+:1");
	ck_assert_str_eq(P.opts.rdma_patterns[1], "bnxt.*");
	ck_assert_int_eq(PARSE("--rd=x", "--rdma"), OPTIONS_RUN); /* a unique prefix, as getopt allows */
	ck_assert(P.opts.rdma_all);
	ck_assert_uint_eq(P.opts.nrdma_patterns, 1);
}
END_TEST

/* --rdma= is an error; the regex cannot be the next token (the value is optional). */
START_TEST(rdma_invalid)
{
	assert_error(PARSE("--rdma="), "invalid RDMA regex ''");
	assert_error(PARSE("--rdma", "mlx5_0:1"), "unexpected argument 'mlx5_0:1'");
}
END_TEST

/* Add test fn as a tcase of its own, named after the behaviour, looping over [0, n). */
static void add(Suite *s, const char *name, const TTest *fn, int n)
{
	TCase *tc = tcase_create(name);
	tcase_add_checked_fixture(tc, NULL, parsed_free);
	tcase_add_loop_test(tc, fn, 0, n);
	suite_add_tcase(s, tc);
}

/* The options suite. */
static Suite *options_suite(void)
{
	Suite *s = suite_create("options");
	int nbad = (int)(sizeof bad_numbers / sizeof *bad_numbers) * 2;
	add(s, "defaults", defaults, 1);
	add(s, "interval_spellings", interval_spellings, 4);
	add(s, "device_spellings", device_spellings, 4);
	add(s, "count_spellings", count_spellings, 4);
	add(s, "sysfs_spellings", sysfs_spellings, 2);
	add(s, "source_spellings", source_spellings, 1);
	add(s, "flag_spellings", flag_spellings, 1);
	add(s, "help_and_version", help_and_version, 1);
	add(s, "long_prefixes", long_prefixes, 1);
	add(s, "combined", combined, 1);
	add(s, "interval_bounds", interval_bounds, 1);
	add(s, "interval_invalid", interval_invalid, nbad);
	add(s, "count_invalid", count_invalid, nbad);
	add(s, "count_bounds", count_bounds, 1);
	add(s, "sysfs_empty", sysfs_empty, 1);
	add(s, "missing_value", missing_value, 1);
	add(s, "unknown_option", unknown_option, 1);
	add(s, "stray_positional", stray_positional, 1);
	add(s, "reparse", reparse, 1);
	add(s, "parse_uint", parse_uint, 1);
	add(s, "metric_spellings", metric_spellings, 4);
	add(s, "metrics_in_order", metrics_in_order, 1);
	add(s, "metric_invalid", metric_invalid, 1);
	add(s, "help_text", help_text, 1);
	add(s, "rdma_spellings", rdma_spellings, 1);
	add(s, "rdma_invalid", rdma_invalid, 1);
	return s;
}

int main(void)
{
	return testutil_run(options_suite());
}
