/* SPDX-License-Identifier: Apache-2.0 */
/* test_iface: interface names, whole-name regexes, the default rule on a fake sysfs tree. */
#include "config.h"

#include "iface.h"
#include "testutil.h"

#include <check.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *root; /* the fake sysfs of the running test */

/* Fixture: a fresh, empty fake sysfs tree. */
static void tree_setup(void)
{
	root = fake_sysfs_new();
}

/* Fixture: remove the tree. */
static void tree_teardown(void)
{
	fake_sysfs_remove();
}

/* Make an empty folder <root>/class/net/<name>, as a name-only entry. */
static void make_entry(const char *name)
{
	char path[512];
	snprintf(path, sizeof path, "%s/class/net/%s", root, name);
	ck_assert_msg(mkdir(path, 0755) == 0, "mkdir %s", path);
}

/* Whether the patterns (NULL-terminated) select name; they must compile. */
static bool selects(const char *const *patterns, const char *name)
{
	size_t n = 0;
	while (patterns[n] != NULL)
		n++;
	struct iface_selector sel;
	char err[IFACE_ERR_MAX] = "";
	ck_assert_msg(iface_selector_init(&sel, patterns, n, err) == 0, "compile failed: %s", err);
	struct iface_dir none = {.fd = -1, .dir = NULL}; /* regexes never look at sysfs */
	bool chosen = iface_selected(&sel, &none, name);
	iface_selector_free(&sel);
	return chosen;
}

#define SELECTS(name, ...) selects((const char *const[]){__VA_ARGS__, NULL}, name)

/* The compile error for pattern, or NULL if it compiled. */
static const char *compile_error(const char *pattern)
{
	static char err[IFACE_ERR_MAX];
	struct iface_selector sel;
	err[0] = '\0';
	if (iface_selector_init(&sel, &pattern, 1, err) == 0) {
		iface_selector_free(&sel);
		return NULL;
	}
	ck_assert_ptr_null(sel.regexes); /* nothing left allocated after a failure */
	ck_assert_msg(err[0] != '\0' && strchr(err, '\n') == NULL, "bad message '%s'", err);
	return err;
}

/* The translation of pattern to POSIX ERE. */
static void assert_translates(const char *pattern, const char *expected)
{
	char *ere = NULL;
	ck_assert_int_eq(iface_regex_translate(pattern, &ere), 0);
	ck_assert_str_eq(ere, expected);
	free(ere);
}

START_TEST(name_valid)
{
	ck_assert(iface_name_valid("eth0"));
	ck_assert(iface_name_valid("enp65s0f0np0"));
	ck_assert(iface_name_valid("0123456789abcde")); /* 15 characters: the longest */
	ck_assert(iface_name_valid(".v0"));             /* the kernel accepts it */
	ck_assert(iface_name_valid("eth0.100"));
	ck_assert(iface_name_valid("a-b_c@d"));
	ck_assert(!iface_name_valid(""));
	ck_assert(!iface_name_valid("."));
	ck_assert(!iface_name_valid(".."));
	ck_assert(!iface_name_valid("0123456789abcdef")); /* 16 characters */
	ck_assert(!iface_name_valid("a/b"));
	ck_assert(!iface_name_valid("a:b"));
	ck_assert(!iface_name_valid("a b"));
	ck_assert(!iface_name_valid("a\tb"));
	ck_assert(!iface_name_valid("a\nb"));
	ck_assert(!iface_name_valid("a\x7f"));
}
END_TEST

START_TEST(regex_exact_name)
{
	ck_assert(SELECTS("eth0", "eth0"));
	ck_assert(!SELECTS("eth10", "eth0"));
	ck_assert(!SELECTS("eth00", "eth0"));
	ck_assert(!SELECTS("veth0", "eth0"));
	ck_assert(!SELECTS("ETH0", "eth0")); /* case matters, as in the kernel */
}
END_TEST

START_TEST(regex_dot_star)
{
	ck_assert(SELECTS("eth0", "eth.*"));
	ck_assert(SELECTS("eth10", "eth.*"));
	ck_assert(SELECTS("eth", "eth.*"));
	ck_assert(!SELECTS("veth0", "eth.*"));
	ck_assert(!SELECTS("ib0", "eth.*"));
}
END_TEST

START_TEST(regex_bracket)
{
	ck_assert(SELECTS("eth0", "eth[0-9]"));
	ck_assert(SELECTS("eth9", "eth[0-9]"));
	ck_assert(!SELECTS("eth10", "eth[0-9]"));
	ck_assert(SELECTS("eth7", "eth[[:digit:]]"));
	ck_assert(!SELECTS("ethx", "eth[[:digit:]]"));
}
END_TEST

START_TEST(regex_prefix_is_not_enough)
{
	ck_assert(!SELECTS("eth0", "eth"));
	ck_assert(!SELECTS("eth10", "eth"));
	ck_assert(SELECTS("eth", "eth"));
	ck_assert(!SELECTS("eth0", "th0")); /* nor is a suffix */
}
END_TEST

START_TEST(regex_backslash_d)
{
	ck_assert(SELECTS("eth0", "eth\\d+"));
	ck_assert(SELECTS("eth10", "eth\\d+"));
	ck_assert(!SELECTS("eth", "eth\\d+"));
	ck_assert(!SELECTS("ethx", "eth\\d+"));
	ck_assert(SELECTS("10", "\\d+"));
	ck_assert(!SELECTS("eth0", "\\d+"));
	ck_assert(SELECTS("ib1", "ib\\d"));
	ck_assert(!SELECTS("ib12", "ib\\d"));
}
END_TEST

START_TEST(regex_translate)
{
	assert_translates("eth\\d+", "eth[0-9]+");
	assert_translates("\\d\\d", "[0-9][0-9]");
	assert_translates("[\\d]", "[\\d]");             /* inside brackets a backslash is literal */
	assert_translates("[]\\d]x\\d", "[]\\d]x[0-9]"); /* ']' first in a bracket is literal */
	assert_translates("[[:digit:]]\\d", "[[:digit:]][0-9]");
	assert_translates("a\\\\d", "a\\\\d"); /* an escaped backslash, then 'd' */
	assert_translates("eth0\\.100", "eth0\\.100");
	assert_translates("[a\\d", "[a\\d"); /* unterminated: left for regcomp to refuse */
	assert_translates("", "");
}
END_TEST

START_TEST(regex_escapes)
{
	ck_assert(SELECTS("eth0.100", "eth0\\.100"));
	ck_assert(!SELECTS("eth0x100", "eth0\\.100"));
	ck_assert(SELECTS("d", "[\\d]"));
	ck_assert(!SELECTS("5", "[\\d]"));
}
END_TEST

START_TEST(regex_alternation)
{
	ck_assert(SELECTS("eth0", "eth0|ib0"));
	ck_assert(SELECTS("ib0", "eth0|ib0"));
	ck_assert(!SELECTS("eth0x", "eth0|ib0")); /* anchoring covers both branches */
	ck_assert(!SELECTS("xib0", "eth0|ib0"));
	ck_assert(!SELECTS("eth1", "eth0|ib0"));
	ck_assert(SELECTS("ib3", "eth.*|ib\\d"));
}
END_TEST

START_TEST(regex_repeated_union)
{
	ck_assert(SELECTS("eth0", "eth0", "ib.*"));
	ck_assert(SELECTS("ib0", "eth0", "ib.*"));
	ck_assert(SELECTS("ib10", "eth0", "ib.*"));
	ck_assert(!SELECTS("eth1", "eth0", "ib.*"));
	ck_assert(SELECTS("c", "a", "b", "c"));
}
END_TEST

START_TEST(regex_empty)
{
	ck_assert_ptr_null(compile_error(""));
	ck_assert(!SELECTS("eth0", ""));
}
END_TEST

START_TEST(regex_invalid)
{
	const char *err = compile_error("(");
	ck_assert_ptr_nonnull(err);
	regex_t re;
	int rc = regcomp(&re, "(", REG_EXTENDED);
	ck_assert_int_ne(rc, 0);
	char reason[256];
	regerror(rc, &re, reason, sizeof reason);
	ck_assert_msg(strstr(err, "'('") != NULL && strstr(err, reason) != NULL,
		      "'%s' lacks the pattern or regerror's '%s'", err, reason);
	ck_assert_ptr_nonnull(compile_error("eth[0-"));
	ck_assert_ptr_nonnull(compile_error("[a\\d"));
	ck_assert_ptr_nonnull(compile_error("x\\"));
	ck_assert_ptr_nonnull(compile_error("*{"));
}
END_TEST

START_TEST(regex_paren_injection)
{
	/* wrapped as ^(a)(b)$ it would compile: the bare pattern must be checked first */
	const char *err = compile_error("a)(b");
	ck_assert_ptr_nonnull(err);
	ck_assert_ptr_nonnull(strstr(err, "a)(b"));
	ck_assert_ptr_nonnull(compile_error("eth0)|(.*"));
}
END_TEST

START_TEST(regex_invalid_among_valid)
{
	const char *patterns[] = {"eth0", "ib.*", "("};
	struct iface_selector sel;
	char err[IFACE_ERR_MAX] = "";
	ck_assert_int_eq(iface_selector_init(&sel, patterns, 3, err), -1);
	ck_assert_ptr_nonnull(strstr(err, "'('"));
	ck_assert_ptr_null(sel.regexes);
	ck_assert_uint_eq(sel.nregexes, 0);
}
END_TEST

START_TEST(regex_back_reference)
{
	/* the user's groups keep their numbers: \1 is the user's first group */
	ck_assert_ptr_null(compile_error("(e)\\1"));
	ck_assert(SELECTS("ee", "(e)\\1"));
	ck_assert(!SELECTS("ef", "(e)\\1"));
	ck_assert(!SELECTS("eee", "(e)\\1"));
	ck_assert(SELECTS("abab", "(ab)\\1"));
	ck_assert(SELECTS("eth0eth0", "(eth\\d)\\1"));
	ck_assert(!SELECTS("eth0eth1", "(eth\\d)\\1"));
	ck_assert(SELECTS("xbcc", "a|xb(c)\\1"));
	ck_assert_ptr_nonnull(compile_error("(e)\\2")); /* no second group */
}
END_TEST

START_TEST(regex_whole_name_longest)
{
	/* the match reported is the leftmost-longest: a shorter branch must not hide a whole match */
	ck_assert(SELECTS("ab", "a|ab"));
	ck_assert(SELECTS("a", "a|ab"));
	ck_assert(SELECTS("ab", "ab|a"));
	ck_assert(!SELECTS("abc", "a|ab"));
	ck_assert(!SELECTS("b", "a|ab"));
	ck_assert(SELECTS("eth0", "eth|eth0"));
	ck_assert(SELECTS("eth0", "(e|et|eth)(h0|0)"));
	ck_assert(SELECTS("eth0", "^eth0$")); /* the user's own anchors still work */
	ck_assert(!SELECTS("xeth0", "^eth0$|eth"));
	ck_assert(SELECTS("eth", "^eth0$|eth"));
}
END_TEST

/* A pattern of count copies of unit, joined by sep, in a static buffer. */
static const char *repeated(const char *unit, const char *sep, size_t count)
{
	static char text[20000];
	text[0] = '\0';
	for (size_t i = 0; i < count; i++) {
		ck_assert_uint_lt(strlen(text) + strlen(unit) + strlen(sep), sizeof text);
		strcat(text, i ? sep : "");
		strcat(text, unit);
	}
	return text;
}

/* Whether compiling pattern fails with a message holding fragment. */
static bool refused_with(const char *pattern, const char *fragment)
{
	const char *err = compile_error(pattern);
	return err != NULL && strstr(err, fragment) != NULL;
}

START_TEST(regex_cost_bound)
{
	/* nested counts multiply: 255^3 positions, gigabytes in glibc: refused before regcomp */
	ck_assert(refused_with("((e{255}){255}){255}", "too costly"));
	ck_assert(refused_with("((e{255}){255}){255}", "more than 32768 positions"));
	ck_assert(refused_with("(e{255}){129}", "positions"));
	ck_assert(refused_with("((((((((((((((((((((e+)+)+)+)+)+)+)+)+)+)+)+)+)+)+)+)+)+)+)+)+",
			       "too costly"));
	/* branch points: closures grow with their square */
	ck_assert(refused_with("((e?){255}){17}", "alternatives, optional parts and groups"));
	ck_assert(refused_with(repeated("e?", "", 4100), "more than 4096"));
	ck_assert(refused_with(repeated("e.", "|", 4100), "more than 4096"));
	ck_assert_ptr_null(compile_error(repeated("e0", "|", 4100))); /* plain names: compared, no regex */
	ck_assert(refused_with(repeated("(|e)", "", 1400), "more than 4096"));
	/* just under the bounds: accepted */
	ck_assert_ptr_null(compile_error("(e{255}){120}"));
	ck_assert_ptr_null(compile_error("e{1,255}0"));
	ck_assert_ptr_null(compile_error("((e?){255}){5}"));
	ck_assert_ptr_null(compile_error(repeated("e0", "|", 3414))); /* a 10 kB list of names */
	ck_assert_ptr_null(compile_error(repeated("a", "", 10240)));
	ck_assert(SELECTS("eth0", repeated("eth\\d", "|", 3000)));
}
END_TEST

/* Whether patterns select name with each pattern P as written and as "(P)", which is the same
 * regex but no list of plain names: the compared and the regexec() verdicts must agree. */
static bool selects_both_ways(const char *pattern, const char *name)
{
	char grouped[256];
	snprintf(grouped, sizeof grouped, "(%s)", pattern);
	bool plain = SELECTS(name, pattern), regex = SELECTS(name, grouped);
	ck_assert_msg(plain == regex, "'%s' on '%s': %d as written, %d as a regex", pattern, name, plain, regex);
	return plain;
}

START_TEST(regex_plain_names_compared)
{
	const char *patterns[] = {"eth0", "eth0|ib0", "ib0|eth0|bond0", "mlx5_0:1", "en-p1", "a|b|c", "eth0|",
				  "|eth0", "eth0||ib0", "eth.", "ETH0", "eth0|ib\\d"};
	const char *names[] = {"eth0", "ib0", "bond0", "mlx5_0:1", "en-p1", "b", "eth1", "eth", "eth00",
			       "xeth0", "eth0|ib0", "ETH0", "ib7", "c"};
	size_t selected = 0;
	for (size_t p = 0; p < sizeof patterns / sizeof *patterns; p++)
		for (size_t n = 0; n < sizeof names / sizeof *names; n++)
			selected += selects_both_ways(patterns[p], names[n]);
	/* eth0 by 8 patterns, ib0 by 4, ib7 by ib\d; bond0, mlx5_0:1, en-p1, b, c, ETH0, eth1 (eth.) by one */
	ck_assert_uint_eq(selected, 20);
	const char *list = "ib0|eth0|bond0";
	struct iface_selector sel;
	char err[IFACE_ERR_MAX] = "";
	ck_assert_int_eq(iface_selector_init(&sel, &list, 1, err), 0);
	ck_assert_uint_eq(sel.nregexes, 0); /* no regex compiled for plain names */
	ck_assert_uint_eq(sel.nliterals, 3);
	ck_assert(iface_selector_matches(&sel, "bond0") && !iface_selector_matches(&sel, "bond"));
	iface_selector_free(&sel);
}
END_TEST

START_TEST(regex_nesting_bound)
{
	/* each level is a recursion in glibc's parser: 20000 levels overflowed the stack */
	static char deep[40002];
	const size_t depths[] = {256, 257, 20000};
	for (size_t i = 0; i < 3; i++) {
		size_t depth = depths[i];
		memset(deep, '(', depth);
		deep[depth] = 'e';
		memset(deep + depth + 1, ')', depth);
		deep[2 * depth + 1] = '\0';
		if (depth == 256)
			ck_assert(SELECTS("e", deep));
		else
			ck_assert(refused_with(deep, "parentheses nested more than 256 deep"));
	}
}
END_TEST

/* Open the fake class/net folder. */
static void open_dir(struct iface_dir *dir)
{
	char err[IFACE_ERR_MAX] = "";
	ck_assert_msg(iface_dir_open(dir, root, err) == 0, "%s", err);
}

/* The names in the tree that sel selects, sorted, comma-separated, in a static buffer. */
static const char *selection(const struct iface_selector *sel)
{
	static char text[512];
	struct iface_dir dir;
	open_dir(&dir);
	char **names = NULL;
	size_t count = 0;
	ck_assert_int_eq(iface_dir_names(&dir, &names, &count), 0);
	text[0] = '\0';
	for (size_t i = 0; i < count; i++) {
		if (!iface_selected(sel, &dir, names[i]))
			continue;
		if (text[0] != '\0')
			strcat(text, ",");
		strcat(text, names[i]);
	}
	iface_names_free(names, count);
	iface_dir_close(&dir);
	return text;
}

/* A tree with every kind of interface the default rule must tell apart. */
static void add_mixed_tree(void)
{
	fake_iface_add("eth0", "up", 0x1003, 1, 2);
	fake_iface_add("tun0", "unknown", 0x1091, 1, 2);
	fake_iface_add("eth1", "down", 0x1002, 1, 2);
	fake_iface_add("wlan0", "dormant", 0x1003, 1, 2);
	fake_iface_add("br0", "lowerlayerdown", 0x1003, 1, 2);
	fake_iface_add("ib0", "testing", 0x1003, 1, 2);
	fake_iface_add("gone0", "notpresent", 0x1003, 1, 2);
	fake_iface_add("lo", "unknown", 0x9, 1, 2);
	fake_iface_add("loop7", "unknown", 0x9, 1, 2);   /* a renamed loopback */
	fake_iface_add("lo2", "up", 0x1003, 1, 2);       /* "lo" in the name, not a loopback */
	fake_iface_add("uplo", "up", 0x100b, 1, 2);      /* up, but the loopback bit is set */
}

START_TEST(default_rule)
{
	add_mixed_tree();
	struct iface_selector sel;
	char err[IFACE_ERR_MAX];
	ck_assert_int_eq(iface_selector_init(&sel, NULL, 0, err), 0);
	ck_assert_str_eq(selection(&sel), "eth0,lo2,tun0");
	iface_selector_free(&sel);
}
END_TEST

START_TEST(default_rule_odd_files)
{
	fake_iface_add("nonl", "up", 0x1003, 1, 2);
	fake_iface_write("nonl", "operstate", "up"); /* no trailing newline */
	fake_iface_add("caps", "up", 0x1003, 1, 2);
	fake_iface_write("caps", "operstate", "UP\n");
	fake_iface_add("noflags", "up", 0x1003, 1, 2);
	fake_iface_add("lo", "unknown", 0x9, 1, 2);
	fake_iface_add("nostate", "up", 0x1003, 1, 2);
	char path[512];
	snprintf(path, sizeof path, "%s/class/net/noflags/flags", root);
	ck_assert_int_eq(unlink(path), 0);
	snprintf(path, sizeof path, "%s/class/net/lo/flags", root);
	ck_assert_int_eq(unlink(path), 0); /* without flags, the name "lo" still says loopback */
	snprintf(path, sizeof path, "%s/class/net/nostate/operstate", root);
	ck_assert_int_eq(unlink(path), 0);
	struct iface_selector sel;
	char err[IFACE_ERR_MAX];
	ck_assert_int_eq(iface_selector_init(&sel, NULL, 0, err), 0);
	ck_assert_str_eq(selection(&sel), "noflags,nonl");
	iface_selector_free(&sel);
}
END_TEST

START_TEST(regex_bypasses_up_check)
{
	add_mixed_tree();
	const char *patterns[] = {"lo", "loop7", "eth1", "wlan0"};
	struct iface_selector sel;
	char err[IFACE_ERR_MAX];
	ck_assert_int_eq(iface_selector_init(&sel, patterns, 4, err), 0);
	ck_assert_str_eq(selection(&sel), "eth1,lo,loop7,wlan0");
	iface_selector_free(&sel);
	const char *all = ".*";
	ck_assert_int_eq(iface_selector_init(&sel, &all, 1, err), 0);
	ck_assert_str_eq(selection(&sel), "br0,eth0,eth1,gone0,ib0,lo,lo2,loop7,tun0,uplo,wlan0");
	iface_selector_free(&sel);
}
END_TEST

START_TEST(dir_names_sorted_and_valid)
{
	const char *entries[] = {"b", "c9", "a", "c10", ".v0", "0123456789abcde", "B"};
	for (size_t i = 0; i < sizeof entries / sizeof *entries; i++)
		make_entry(entries[i]);
	make_entry("x:y");              /* not a name the kernel gives */
	make_entry("0123456789abcdef"); /* too long */
	make_entry("sp ace");
	struct iface_dir dir;
	open_dir(&dir);
	char **names = NULL;
	size_t count = 0;
	ck_assert_int_eq(iface_dir_names(&dir, &names, &count), 0);
	const char *expected[] = {".v0", "0123456789abcde", "B", "a", "b", "c10", "c9"};
	ck_assert_uint_eq(count, 7);
	for (size_t i = 0; i < count; i++)
		ck_assert_str_eq(names[i], expected[i]);
	iface_names_free(names, count);
	iface_dir_close(&dir);
	iface_dir_close(&dir); /* closing twice is harmless */
}
END_TEST

START_TEST(dir_rescan_sees_changes)
{
	struct iface_dir dir;
	open_dir(&dir);
	char **names = NULL;
	size_t count = 99;
	ck_assert_int_eq(iface_dir_names(&dir, &names, &count), 0);
	ck_assert_uint_eq(count, 0);
	iface_names_free(names, count);
	fake_iface_add("eth1", "up", 0x1003, 0, 0);
	fake_iface_add("eth0", "up", 0x1003, 0, 0);
	ck_assert_int_eq(iface_dir_names(&dir, &names, &count), 0);
	ck_assert_uint_eq(count, 2);
	ck_assert_str_eq(names[0], "eth0");
	ck_assert_str_eq(names[1], "eth1");
	iface_names_free(names, count);
	fake_iface_remove("eth0");
	ck_assert_int_eq(iface_dir_names(&dir, &names, &count), 0);
	ck_assert_uint_eq(count, 1);
	ck_assert_str_eq(names[0], "eth1");
	iface_names_free(names, count);
	iface_dir_close(&dir);
}
END_TEST

START_TEST(dir_open_missing)
{
	char missing[600], err[IFACE_ERR_MAX] = "";
	snprintf(missing, sizeof missing, "%s/nowhere", root);
	struct iface_dir dir;
	ck_assert_int_eq(iface_dir_open(&dir, missing, err), -1);
	char expected[700];
	snprintf(expected, sizeof expected, "%s/class/net", missing);
	ck_assert_msg(strstr(err, expected) != NULL, "'%s' does not name %s", err, expected);
	ck_assert_msg(strstr(err, "No such file") != NULL, "'%s' lacks the reason", err);
	ck_assert_int_eq(dir.fd, -1);
	ck_assert_ptr_null(dir.dir);
}
END_TEST

START_TEST(dir_open_not_a_folder)
{
	char path[600], err[IFACE_ERR_MAX] = "";
	snprintf(path, sizeof path, "%s/class/net", root);
	ck_assert_int_eq(rmdir(path), 0);
	int fd = open(path, O_WRONLY | O_CREAT, 0644);
	ck_assert_int_ge(fd, 0);
	close(fd);
	struct iface_dir dir;
	ck_assert_int_eq(iface_dir_open(&dir, root, err), -1);
	ck_assert_msg(strstr(err, path) != NULL, "'%s' does not name %s", err, path);
	ck_assert_msg(strstr(err, "Not a directory") != NULL, "'%s' lacks the reason", err);
}
END_TEST

/* Add fn as a tcase of its own, with a fake tree around it. */
static void add(Suite *s, const char *name, const TTest *fn)
{
	testutil_add(s, name, fn, tree_setup, tree_teardown);
}

/* The iface suite. */
static Suite *iface_suite(void)
{
	Suite *s = suite_create("iface");
	add(s, "name_valid", name_valid);
	add(s, "regex_exact_name", regex_exact_name);
	add(s, "regex_dot_star", regex_dot_star);
	add(s, "regex_bracket", regex_bracket);
	add(s, "regex_prefix_is_not_enough", regex_prefix_is_not_enough);
	add(s, "regex_backslash_d", regex_backslash_d);
	add(s, "regex_translate", regex_translate);
	add(s, "regex_escapes", regex_escapes);
	add(s, "regex_alternation", regex_alternation);
	add(s, "regex_repeated_union", regex_repeated_union);
	add(s, "regex_empty", regex_empty);
	add(s, "regex_invalid", regex_invalid);
	add(s, "regex_paren_injection", regex_paren_injection);
	add(s, "regex_invalid_among_valid", regex_invalid_among_valid);
	add(s, "regex_back_reference", regex_back_reference);
	add(s, "regex_whole_name_longest", regex_whole_name_longest);
	add(s, "regex_cost_bound", regex_cost_bound);
	add(s, "regex_plain_names_compared", regex_plain_names_compared);
	add(s, "regex_nesting_bound", regex_nesting_bound);
	add(s, "default_rule", default_rule);
	add(s, "default_rule_odd_files", default_rule_odd_files);
	add(s, "regex_bypasses_up_check", regex_bypasses_up_check);
	add(s, "dir_names_sorted_and_valid", dir_names_sorted_and_valid);
	add(s, "dir_rescan_sees_changes", dir_rescan_sees_changes);
	add(s, "dir_open_missing", dir_open_missing);
	add(s, "dir_open_not_a_folder", dir_open_not_a_folder);
	return s;
}

int main(void)
{
	return testutil_run(iface_suite());
}
