/* SPDX-License-Identifier: Apache-2.0 */
/* test_csv: the --print header and rows, and write errors. */
#include "config.h"

#include "csv.h"

#include "testutil.h"

#include <check.h>
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The default fields: rx and tx. */
static const struct metric_set *defaults(void)
{
	static struct metric_set set;
	metric_set_init(&set);
	return &set;
}

static char *text;   /* what the memory stream holds */
static size_t size;
static FILE *out;    /* the stream under test */

/* Fixture: a fresh memory stream. */
static void stream_setup(void)
{
	text = NULL;
	size = 0;
	out = open_memstream(&text, &size);
	ck_assert_ptr_nonnull(out);
}

/* Fixture: close and free it. */
static void stream_teardown(void)
{
	if (out != NULL)
		fclose(out);
	out = NULL;
	free(text);
	text = NULL;
}

/* Everything written so far. */
static const char *written(void)
{
	ck_assert_int_eq(csv_flush(out), 0);
	return text;
}

START_TEST(header)
{
	ck_assert_int_eq(csv_header(out, defaults()), 0);
	ck_assert_str_eq(written(), "time_s,interval_s,interface,rx_MiB_s,tx_MiB_s\n");
}
END_TEST

START_TEST(row_with_value)
{
	ck_assert_int_eq(csv_row(out, 1.5, 0.02, "eth0", &(struct rate){{2.0, 0.5}}, defaults()), 0);
	ck_assert_str_eq(written(), "1.500000000,0.020000000,eth0,2,0.5\n");
}
END_TEST

START_TEST(row_full_precision)
{
	ck_assert_int_eq(csv_row(out, 0.0, 0.123456789, "ib0", &(struct rate){{0.1, 1.0 / 3.0}}, defaults()), 0);
	ck_assert_int_eq(csv_row(out, 12345.000000001, 1e-6, "total", &(struct rate){{1e20, 0.0}}, defaults()), 0);
	ck_assert_str_eq(written(), "0.000000000,0.123456789,ib0,0.10000000000000001,0.33333333333333331\n"
				    "12345.000000001,0.000001000,total,1e+20,0\n");
}
END_TEST

/* Field number field (0-based) of the one-line CSV text, as a double; the whole field must parse. */
static double field_value(const char *line, int field)
{
	for (int i = 0; i < field; i++) {
		line = strchr(line, ',');
		ck_assert_ptr_nonnull(line);
		line++;
	}
	char *end = NULL;
	double value = strtod(line, &end);
	ck_assert_msg(end != line && (*end == ',' || *end == '\n'), "field %d of '%s'", field, line);
	return value;
}

START_TEST(row_rates_round_trip)
{
	/* what a reader parses back is the double that was computed, bit for bit */
	const double values[] = {1.0 / 3.0, 0.1, 2.0 / 3.0 * 1e-300, 1e20 + 16384.0, 123456.789012345678,
				 1.0 + 0x1p-52, 4.9406564584124654e-324, 1.7976931348623157e308};
	for (size_t i = 0; i < sizeof values / sizeof *values; i++) {
		rewind(out);
		ck_assert_int_eq(csv_row(out, 1.0, 1.0, "eth0", &(struct rate){{values[i], -values[i]}}, defaults()), 0);
		ck_assert_int_eq(fputc('\0', out), 0);
		ck_assert_int_eq(fflush(out), 0);
		ck_assert_msg(field_value(text, 3) == values[i], "rx %.17g printed as '%s'", values[i], text);
		ck_assert_msg(field_value(text, 4) == -values[i], "tx %.17g printed as '%s'", -values[i], text);
	}
}
END_TEST

START_TEST(row_without_value)
{
	ck_assert_int_eq(csv_row(out, 3.25, 0.5, "eth1", NULL, defaults()), 0);
	ck_assert_int_eq(csv_row(out, 3.25, 0.5, "total", NULL, defaults()), 0);
	ck_assert_str_eq(written(), "3.250000000,0.500000000,eth1,,\n3.250000000,0.500000000,total,,\n");
}
END_TEST

START_TEST(names_with_comma_or_quote_are_quoted)
{
	ck_assert_int_eq(csv_row(out, 1.0, 1.0, "a,b", &(struct rate){{1.0, 2.0}}, defaults()), 0);
	ck_assert_int_eq(csv_row(out, 1.0, 1.0, "q\"x", NULL, defaults()), 0);
	ck_assert_str_eq(written(), "1.000000000,1.000000000,\"a,b\",1,2\n"
				    "1.000000000,1.000000000,\"q\"\"x\",,\n");
}
END_TEST

START_TEST(rows_have_five_fields)
{
	ck_assert_int_eq(csv_header(out, defaults()), 0);
	ck_assert_int_eq(csv_row(out, 1.0, 1.0, "eth0", &(struct rate){{1.0, 2.0}}, defaults()), 0);
	ck_assert_int_eq(csv_row(out, 1.0, 1.0, "eth1", NULL, defaults()), 0);
	const char *p = written();
	int lines = 0;
	while (*p != '\0') {
		const char *end = strchr(p, '\n');
		ck_assert_ptr_nonnull(end);
		int commas = 0;
		for (const char *c = p; c < end; c++)
			commas += *c == ',';
		ck_assert_int_eq(commas, 4);
		lines++;
		p = end + 1;
	}
	ck_assert_int_eq(lines, 3);
}
END_TEST

START_TEST(closed_pipe_is_epipe)
{
	signal(SIGPIPE, SIG_IGN); /* as the sampler does */
	int fds[2];
	ck_assert_int_eq(pipe(fds), 0);
	close(fds[0]);
	FILE *f = fdopen(fds[1], "w");
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(csv_row(f, 1.0, 1.0, "eth0", NULL, defaults()), 0); /* buffered */
	errno = 0;
	ck_assert_int_eq(csv_flush(f), -1);
	ck_assert_int_eq(errno, EPIPE);
	fclose(f);
}
END_TEST

START_TEST(full_device_fails)
{
	FILE *f = fopen("/dev/full", "w");
	ck_assert_msg(f != NULL, "/dev/full: %s", strerror(errno));
	ck_assert_int_eq(csv_header(f, defaults()), 0);
	errno = 0;
	ck_assert_int_eq(csv_flush(f), -1);
	ck_assert_int_eq(errno, ENOSPC);
	fclose(f);
}
END_TEST

/* A set with the named metrics, in order (NULL-terminated). */
static const struct metric_set *with(const char *const *names)
{
	static struct metric_set set;
	metric_set_init(&set);
	for (size_t i = 0; names[i] != NULL; i++)
		ck_assert_int_eq(metric_set_add(&set, names[i]), 0);
	return &set;
}

START_TEST(metric_columns_in_order)
{
	const struct metric_set *set = with((const char *const[]){"util", "packets", "drops", "errors", NULL});
	ck_assert_int_eq(csv_header(out, set), 0);
	struct rate r;
	for (int f = 0; f < FIELD_KINDS; f++)
		r.field[f] = f + 0.5;
	r.field[FIELD_TX_UTIL] = NAN; /* no honest value: empty, as for rx and tx */
	ck_assert_int_eq(csv_row(out, 1.0, 1.0, "eth0", &r, set), 0);
	ck_assert_int_eq(csv_row(out, 1.0, 1.0, "total", NULL, set), 0);
	ck_assert_str_eq(written(), "time_s,interval_s,interface,rx_MiB_s,tx_MiB_s,rx_util_pct,tx_util_pct,"
				    "rx_packets_s,tx_packets_s,rx_dropped_s,tx_dropped_s,rx_errors_s,tx_errors_s\n"
				    "1.000000000,1.000000000,eth0,0.5,1.5,8.5,,2.5,3.5,6.5,7.5,4.5,5.5\n"
				    "1.000000000,1.000000000,total,,,,,,,,,,\n");
}
END_TEST

/* Add fn as a tcase of its own, with a memory stream around it. */
static void add(Suite *s, const char *name, const TTest *fn)
{
	testutil_add(s, name, fn, stream_setup, stream_teardown);
}

/* The csv suite. */
static Suite *csv_suite(void)
{
	Suite *s = suite_create("csv");
	add(s, "header", header);
	add(s, "row_with_value", row_with_value);
	add(s, "row_full_precision", row_full_precision);
	add(s, "row_rates_round_trip", row_rates_round_trip);
	add(s, "row_without_value", row_without_value);
	add(s, "names_with_comma_or_quote_are_quoted", names_with_comma_or_quote_are_quoted);
	add(s, "rows_have_five_fields", rows_have_five_fields);
	add(s, "closed_pipe_is_epipe", closed_pipe_is_epipe);
	add(s, "full_device_fails", full_device_fails);
	add(s, "metric_columns_in_order", metric_columns_in_order);
	return s;
}

int main(void)
{
	return testutil_run(csv_suite());
}
