/* SPDX-License-Identifier: Apache-2.0 */
/* test_sysfs: parsing of decimal and hexadecimal attributes, reads through held fds. */
#include "config.h"

#include "sysfs.h"
#include "testutil.h"

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define U64_SENTINEL UINT64_C(0x5eed5eed5eed5eed)

/* sysfs_parse_u64 on a C string; -1, or 0 with the value in *out. */
static int parse_u64(const char *text, uint64_t *out)
{
	*out = U64_SENTINEL;
	return sysfs_parse_u64(text, strlen(text), out);
}

/* sysfs_parse_hex on a C string; -1, or 0 with the value in *out. */
static int parse_hex(const char *text, uint64_t *out)
{
	*out = U64_SENTINEL;
	return sysfs_parse_hex(text, strlen(text), out);
}

/* Assert that text parses (decimal) to expected. */
static void assert_u64(const char *text, uint64_t expected)
{
	uint64_t v;
	ck_assert_msg(parse_u64(text, &v) == 0, "'%s' refused", text);
	ck_assert_uint_eq(v, expected);
}

/* Assert that text is refused (decimal), leaving the output alone. */
static void refuse_u64(const char *text)
{
	uint64_t v;
	ck_assert_msg(parse_u64(text, &v) == -1, "'%s' accepted", text);
	ck_assert_uint_eq(v, U64_SENTINEL);
}

/* Assert that text parses (hexadecimal) to expected. */
static void assert_hex(const char *text, uint64_t expected)
{
	uint64_t v;
	ck_assert_msg(parse_hex(text, &v) == 0, "'%s' refused", text);
	ck_assert_uint_eq(v, expected);
}

/* Assert that text is refused (hexadecimal). */
static void refuse_hex(const char *text)
{
	uint64_t v;
	ck_assert_msg(parse_hex(text, &v) == -1, "'%s' accepted", text);
	ck_assert_uint_eq(v, U64_SENTINEL);
}

START_TEST(u64_valid)
{
	assert_u64("0", 0);
	assert_u64("0\n", 0);
	assert_u64("7\n", 7);
	assert_u64("1234567890", 1234567890);
	assert_u64("00000000000000000042\n", 42); /* 20 digits, as the fake tree writes them */
	assert_u64("18446744073709551615", UINT64_MAX);
	assert_u64("18446744073709551615\n", UINT64_MAX);
	assert_u64("18446744073709551614", UINT64_MAX - 1);
}
END_TEST

START_TEST(u64_invalid)
{
	refuse_u64("");
	refuse_u64("\n");
	refuse_u64("18446744073709551616"); /* 2^64 */
	refuse_u64("18446744073709551620");
	refuse_u64("99999999999999999999");
	refuse_u64("100000000000000000000"); /* 21 digits */
	refuse_u64("000000000000000000001"); /* 21 digits, small value */
	refuse_u64("12a");
	refuse_u64("-1");
	refuse_u64("+1");
	refuse_u64(" 5");
	refuse_u64("5 ");
	refuse_u64("5\n\n");
	refuse_u64("\n5");
	refuse_u64("5\r\n");
	refuse_u64("0x10");
}
END_TEST

START_TEST(u64_length_bounds)
{
	uint64_t v = 0;
	ck_assert_int_eq(sysfs_parse_u64("123", 2, &v), 0); /* only len bytes count */
	ck_assert_uint_eq(v, 12);
	ck_assert_int_eq(sysfs_parse_u64("5\0", 2, &v), -1); /* an embedded NUL is not a digit */
	ck_assert_int_eq(sysfs_parse_u64("5", 0, &v), -1);
}
END_TEST

START_TEST(hex_valid)
{
	assert_hex("0x0", 0);
	assert_hex("0x9\n", 9);
	assert_hex("0x1003\n", 0x1003);
	assert_hex("0X1003", 0x1003);
	assert_hex("0xABCdef", 0xabcdef);
	assert_hex("0xffffffffffffffff", UINT64_MAX);
	assert_hex("0xffffffffffffffff\n", UINT64_MAX);
}
END_TEST

START_TEST(hex_invalid)
{
	refuse_hex("");
	refuse_hex("\n");
	refuse_hex("0x");
	refuse_hex("0x\n");
	refuse_hex("1003");   /* the kernel always writes the prefix */
	refuse_hex("x1003");
	refuse_hex("0x1g");
	refuse_hex(" 0x1");
	refuse_hex("0x1 ");
	refuse_hex("0x1\n\n");
	refuse_hex("-0x1");
	refuse_hex("0x10000000000000000"); /* 2^64 */
}
END_TEST

static const char *root;

/* Fixture: a fake tree with one interface. */
static void tree_setup(void)
{
	root = fake_sysfs_new();
	fake_iface_add("eth0", "up", 0x1003, 1000, 2000);
}

/* Fixture: remove the tree. */
static void tree_teardown(void)
{
	fake_sysfs_remove();
}

/* Open <root>/class/net as a folder fd. */
static int open_net(void)
{
	char path[512];
	snprintf(path, sizeof path, "%s/class/net", root);
	int fd = open(path, O_RDONLY | O_DIRECTORY);
	ck_assert_int_ge(fd, 0);
	return fd;
}

START_TEST(read_at)
{
	int dirfd = open_net();
	char buf[SYSFS_VALUE_MAX];
	ck_assert_int_eq(sysfs_read_at(dirfd, "eth0/operstate", buf, sizeof buf), 3);
	ck_assert_str_eq(buf, "up\n");
	ck_assert_int_eq(sysfs_read_at(dirfd, "eth0/flags", buf, sizeof buf), 7);
	ck_assert_str_eq(buf, "0x1003\n");
	ck_assert_int_eq(sysfs_read_at(dirfd, "eth0/nothing", buf, sizeof buf), -ENOENT);
	ck_assert_int_eq(sysfs_read_at(dirfd, "eth1/operstate", buf, sizeof buf), -ENOENT);
	close(dirfd);
}
END_TEST

START_TEST(pread_held_fd)
{
	int dirfd = open_net();
	int fd = sysfs_open(dirfd, "eth0/statistics/rx_bytes");
	ck_assert_int_ge(fd, 0);
	ck_assert_int_ne(fcntl(fd, F_GETFD) & FD_CLOEXEC, 0);
	char buf[SYSFS_VALUE_MAX];
	uint64_t v = 0;
	ssize_t n = sysfs_pread(fd, buf, sizeof buf);
	ck_assert_int_eq(n, 21);
	ck_assert_int_eq(sysfs_parse_u64(buf, (size_t)n, &v), 0);
	ck_assert_uint_eq(v, 1000);
	fake_iface_set("eth0", UINT64_MAX, 5);
	n = sysfs_pread(fd, buf, sizeof buf); /* the same fd sees the new value */
	ck_assert_int_eq(sysfs_parse_u64(buf, (size_t)n, &v), 0);
	ck_assert_uint_eq(v, UINT64_MAX);
	close(fd);
	ck_assert_int_eq(sysfs_open(dirfd, "eth0/statistics/none"), -ENOENT);
	close(dirfd);
}
END_TEST

START_TEST(pread_truncates_safely)
{
	int dirfd = open_net();
	fake_iface_write("eth0", "operstate", "0123456789");
	char small[5];
	memset(small, 'x', sizeof small);
	ck_assert_int_eq(sysfs_read_at(dirfd, "eth0/operstate", small, sizeof small), 4);
	ck_assert_str_eq(small, "0123"); /* NUL-terminated within the buffer */
	ck_assert_int_eq(sysfs_pread(-1, small, sizeof small), -EBADF);
	close(dirfd);
}
END_TEST

/* Add fn as a tcase of its own, with a fake tree around it. */
static void add(Suite *s, const char *name, const TTest *fn)
{
	testutil_add(s, name, fn, tree_setup, tree_teardown);
}

/* The sysfs suite. */
static Suite *sysfs_suite(void)
{
	Suite *s = suite_create("sysfs");
	add(s, "u64_valid", u64_valid);
	add(s, "u64_invalid", u64_invalid);
	add(s, "u64_length_bounds", u64_length_bounds);
	add(s, "hex_valid", hex_valid);
	add(s, "hex_invalid", hex_invalid);
	add(s, "read_at", read_at);
	add(s, "pread_held_fd", pread_held_fd);
	add(s, "pread_truncates_safely", pread_truncates_safely);
	return s;
}

int main(void)
{
	return testutil_run(sysfs_suite());
}
