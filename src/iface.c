/* SPDX-License-Identifier: Apache-2.0 */
/* iface: list the interfaces under <sysfs>/class/net and decide which to monitor. */
#include "config.h"

#include "iface.h"
#include "sysfs.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define IFF_LOOPBACK_BIT 0x8 /* IFF_LOOPBACK from <net/if.h>, the bit in <if>/flags */
#define IFACE_REPEAT_MAX 255 /* largest {m,n} count accepted: glibc's regcomp cost explodes above */

/* What a pattern may cost glibc's regcomp(). It copies a repeated part once per count, so
 * nested counts multiply ("((e{255}){255}){255}" is 16 million positions, gigabytes); and
 * each position's epsilon closure may hold every branch point, so memory grows with their
 * square (4096 branch points: ~130 MB, a tenth of a second). Each parenthesis level is a
 * recursion in its parser (20000 levels overflow an 8 MiB stack). */
#define IFACE_REGEX_NODES_MAX 32768
#define IFACE_REGEX_BRANCHES_MAX 4096
#define IFACE_REGEX_DEPTH_MAX 256
#define COST_CAP (UINT64_C(1) << 62) /* saturation: far above any limit */
#define KN_STR_(x) #x
#define KN_STR(x) KN_STR_(x)

/* A repetition operator: how many copies glibc makes, how many of them are optional. */
struct repeat {
	unsigned max;      /* copies of the atom (x+ is two: x x*) */
	unsigned optional; /* copies that may be skipped, each a branch point */
	bool big;          /* a count above IFACE_REPEAT_MAX */
};

/* The estimated size of a part of a pattern once regcomp() has expanded it. */
struct cost {
	uint64_t nodes;    /* positions */
	uint64_t branches; /* alternatives, optional parts, group boundaries */
};

/* One parenthesis level of the estimate: alternatives so far, the branch under way, and
 * the last atom (kept apart so that a repetition operator applies to it alone). */
struct cost_frame {
	struct cost alternatives, branch, last;
};

bool iface_name_valid(const char *name)
{
	size_t len = strnlen(name, IFACE_NAME_MAX);
	if (len == 0 || len >= IFACE_NAME_MAX || strcmp(name, ".") == 0 || strcmp(name, "..") == 0)
		return false;
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)name[i];
		if (c == '/' || c == ':' || c <= ' ' || c == 0x7f)
			return false;
	}
	return true;
}

/* Length of the bracket expression starting at p[0] == '[', or 0 when unterminated. */
static size_t bracket_length(const char *p)
{
	size_t i = 1;
	if (p[i] == '^')
		i++;
	if (p[i] == ']')
		i++;
	for (; p[i] != '\0'; i++) {
		if (p[i] == '[' && (p[i + 1] == ':' || p[i + 1] == '.' || p[i + 1] == '=')) {
			const char *close = strchr(p + i + 2, p[i + 1]);
			if (close == NULL || close[1] != ']')
				return 0;
			i = (size_t)(close + 1 - p);
		} else if (p[i] == ']') {
			return i + 1;
		}
	}
	return 0;
}

int iface_regex_translate(const char *pattern, char **out)
{
	char *ere = malloc(strlen(pattern) * 5 / 2 + 1); /* "\d" (2 bytes) grows to "[0-9]" (5) */
	if (ere == NULL)
		return -1;
	char *w = ere;
	for (const char *p = pattern; *p != '\0';) {
		size_t bracket = (*p == '[') ? bracket_length(p) : 0;
		if (*p == '[' && bracket == 0)
			bracket = strlen(p); /* unterminated: copied as is, for regcomp to refuse */
		if (bracket > 0) {
			memcpy(w, p, bracket);
			w += bracket;
			p += bracket;
		} else if (p[0] == '\\' && p[1] == 'd') {
			memcpy(w, "[0-9]", 5);
			w += 5;
			p += 2;
		} else if (p[0] == '\\' && p[1] != '\0') {
			*w++ = *p++;
			*w++ = *p++;
		} else {
			*w++ = *p++;
		}
	}
	*w = '\0';
	*out = ere;
	return 0;
}

/* Length of the repetition operator at p (*, +, ? or {m,n}), 0 if none; its counts in *rep. */
static size_t repeat_parse(const char *p, struct repeat *rep)
{
	*rep = (struct repeat){0};
	if (*p == '*' || *p == '?' || *p == '+') {
		rep->max = (*p == '+') ? 2 : 1; /* glibc makes x+ into x x* */
		rep->optional = 1;
		return 1;
	}
	const char *close = (*p == '{') ? strchr(p, '}') : NULL;
	if (close == NULL)
		return 0;
	unsigned count[2] = {0, 0};
	bool comma = false, digits_after = false;
	for (const char *q = p + 1; q < close; q++) {
		if (*q == ',' && !comma) {
			comma = true;
		} else if (*q >= '0' && *q <= '9') {
			count[comma] = count[comma] * 10 + (unsigned)(*q - '0');
			digits_after = digits_after || comma;
			if (count[comma] > IFACE_REPEAT_MAX) {
				rep->big = true;
				count[comma] = IFACE_REPEAT_MAX + 1; /* no overflow, however many digits */
			}
		}
	}
	/* glibc copies the atom max times ({m,} is m copies and a star) */
	unsigned min = count[0], max = !comma ? min : digits_after ? count[1] : min + 1;
	rep->optional = !comma ? 0 : digits_after ? (max > min ? max - min : 0) : 1;
	rep->max = max > 0 ? max : 1; /* x{0} is parsed before it is dropped */
	return (size_t)(close - p) + 1;
}

/* a * b, saturating at COST_CAP. */
static uint64_t cost_mul(uint64_t a, uint64_t b)
{
	return (b != 0 && a > COST_CAP / b) ? COST_CAP : a * b;
}

/* a + b, saturating at COST_CAP. */
static uint64_t cost_add(uint64_t a, uint64_t b)
{
	return (a > COST_CAP - b) ? COST_CAP : a + b;
}

/* The cost of x then y (concatenation, or what an alternation adds up). */
static struct cost cost_sum(struct cost x, struct cost y)
{
	return (struct cost){cost_add(x.nodes, y.nodes), cost_add(x.branches, y.branches)};
}

/* The cost of x under the repetition rep: glibc copies x, and each optional copy branches. */
static struct cost cost_repeat(struct cost x, const struct repeat *rep)
{
	return (struct cost){cost_add(cost_mul(x.nodes, rep->max), 1),
			     cost_add(cost_mul(x.branches, rep->max), rep->optional)};
}

/* Fold the pending atom of frame f into its branch. */
static void frame_flush(struct cost_frame *f)
{
	f->branch = cost_sum(f->branch, f->last);
	f->last = (struct cost){0, 0};
}

/* The cost of everything in frame f: its alternatives and the branch under way. */
static struct cost frame_total(struct cost_frame *f)
{
	frame_flush(f);
	return cost_sum(f->alternatives, f->branch);
}

/* Length of the token at p that is no operator: a bracket, an escape or one character. */
static size_t atom_length(const char *p)
{
	size_t len = (*p == '[') ? bracket_length(p) : (*p == '\\' && p[1] != '\0') ? 2 : 0;
	return len > 0 ? len : 1;
}

/* Estimate what glibc's regcomp() would build for the ERE: positions after copying every
 * repeated part, and branch points (alternatives, optional parts, groups); each parenthesis
 * level keeps one frame. NULL, or why the pattern is refused. */
static const char *ere_cost_problem(const char *ere)
{
	struct cost_frame frames[IFACE_REGEX_DEPTH_MAX + 1] = {{{0, 0}, {0, 0}, {0, 0}}};
	size_t depth = 0;
	bool after_repeat = false;
	for (const char *p = ere; *p != '\0';) {
		struct cost_frame *f = &frames[depth];
		struct repeat rep;
		size_t len = repeat_parse(p, &rep);
		if (len > 0 && after_repeat)
			return "two repetition operators in a row";
		if (rep.big)
			return "repetition count above 255";
		after_repeat = len > 0;
		if (len > 0) {
			f->last = cost_repeat(f->last, &rep);
		} else if (*p == '(') {
			if (depth == IFACE_REGEX_DEPTH_MAX)
				return "parentheses nested more than " KN_STR(IFACE_REGEX_DEPTH_MAX) " deep";
			frame_flush(f);
			frames[++depth] = (struct cost_frame){{0, 0}, {0, 0}, {0, 0}};
			len = 1;
		} else if (*p == ')' && depth > 0) {
			struct cost group = frame_total(f);
			frames[--depth].last = cost_sum(group, (struct cost){2, 2}); /* open and close */
			len = 1;
		} else if (*p == '|') {
			frame_flush(f);
			f->alternatives = cost_sum(cost_sum(f->alternatives, f->branch), (struct cost){1, 1});
			f->branch = (struct cost){0, 0};
			len = 1;
		} else {
			frame_flush(f);
			f->last = (struct cost){1, 0};
			len = atom_length(p);
		}
		p += len;
	}
	struct cost total = frame_total(&frames[depth]);
	while (depth > 0) /* unclosed: regcomp refuses it, but count it all the same */
		total = cost_sum(frame_total(&frames[--depth]), total);
	if (total.nodes > IFACE_REGEX_NODES_MAX)
		return "too costly: it expands to more than " KN_STR(IFACE_REGEX_NODES_MAX)
		       " positions (nested repetition counts multiply)";
	if (total.branches > IFACE_REGEX_BRANCHES_MAX)
		return "too costly: it expands to more than " KN_STR(IFACE_REGEX_BRANCHES_MAX)
		       " alternatives, optional parts and groups";
	return NULL;
}

/* Compile one user pattern as written (its groups keep their numbers, so back-references
 * work); iface_selected() demands a match of the whole name. 0, or -1 with the reason in err. */
static int compile_whole_name(regex_t *re, const char *pattern, const char *what, char err[IFACE_ERR_MAX])
{
	char *ere = NULL;
	int rc = iface_regex_translate(pattern, &ere) == 0 ? 0 : REG_ESPACE;
	const char *problem = rc == 0 ? ere_cost_problem(ere) : NULL;
	if (rc == 0 && problem == NULL)
		rc = regcomp(re, ere, REG_EXTENDED);
	free(ere);
	if (rc == 0 && problem == NULL)
		return 0;
	char reason[256];
	if (problem != NULL)
		snprintf(reason, sizeof reason, "%s", problem);
	else
		regerror(rc, re, reason, sizeof reason);
	snprintf(err, IFACE_ERR_MAX, "invalid %s regex '%.200s': %s", what, pattern, reason);
	return -1;
}

/* Whether re matches all of name. POSIX matching is leftmost-longest: if any match spans the
 * whole name, the one regexec() reports starts at 0 and is the longest there, so ends at len. */
static bool matches_whole(const regex_t *re, const char *name)
{
	regmatch_t m[1];
	return regexec(re, name, 1, m, 0) == 0 && m[0].rm_so == 0 &&
	       (size_t)m[0].rm_eo == strlen(name);
}

/* Whether pattern is plain names joined by '|' (none empty, only printable ASCII that is no ERE
 * operator): then a whole-name match is a string comparison with one of the names. */
static bool literal_names(const char *pattern)
{
	size_t branch = 0;
	for (const char *p = pattern;; p++) {
		if (*p == '|' || *p == '\0') {
			if (branch == 0)
				return false;
			if (*p == '\0')
				return true;
			branch = 0;
		} else if (*p < '!' || *p > '~' || strchr(".[]()*+?{}^$\\", *p) != NULL) {
			return false;
		} else {
			branch++;
		}
	}
}

/* Order of two C strings for qsort and bsearch, byte order. */
static int compare_strings(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Add the names of a literal_names() pattern to sel->literals; 0 or -1 (out of memory). */
static int add_literals(struct iface_selector *sel, const char *pattern)
{
	size_t names = 1;
	for (const char *p = pattern; *p != '\0'; p++)
		names += *p == '|';
	char **grown = realloc(sel->literals, (sel->nliterals + names) * sizeof *grown);
	if (grown == NULL)
		return -1;
	sel->literals = grown;
	for (const char *p = pattern;; p++) {
		size_t len = strcspn(p, "|");
		char *name = strndup(p, len);
		if (name == NULL)
			return -1;
		sel->literals[sel->nliterals++] = name;
		p += len;
		if (*p == '\0')
			return 0;
	}
}

int iface_selector_init(struct iface_selector *sel, const char *const *patterns, size_t n,
			char err[IFACE_ERR_MAX])
{
	return iface_selector_init_named(sel, patterns, n, "device", err);
}

int iface_selector_init_named(struct iface_selector *sel, const char *const *patterns, size_t n,
			      const char *what, char err[IFACE_ERR_MAX])
{
	*sel = (struct iface_selector){0};
	if (n == 0)
		return 0;
	sel->regexes = calloc(n, sizeof *sel->regexes);
	if (sel->regexes == NULL) {
		snprintf(err, IFACE_ERR_MAX, "out of memory");
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		int rc;
		if (literal_names(patterns[i])) {
			rc = add_literals(sel, patterns[i]);
			if (rc != 0)
				snprintf(err, IFACE_ERR_MAX, "out of memory");
		} else {
			rc = compile_whole_name(&sel->regexes[sel->nregexes], patterns[i], what, err);
			sel->nregexes += rc == 0;
		}
		if (rc != 0) {
			iface_selector_free(sel);
			return -1;
		}
	}
	if (sel->nliterals > 1)
		qsort(sel->literals, sel->nliterals, sizeof *sel->literals, compare_strings);
	return 0;
}

void iface_selector_free(struct iface_selector *sel)
{
	for (size_t i = 0; i < sel->nregexes; i++)
		regfree(&sel->regexes[i]);
	free(sel->regexes);
	for (size_t i = 0; i < sel->nliterals; i++)
		free(sel->literals[i]);
	free(sel->literals);
	*sel = (struct iface_selector){0};
}

ssize_t iface_read_attr(const struct iface_dir *dir, const char *name, const char *attr, char *buf,
			size_t size)
{
	char path[IFACE_NAME_MAX + 32];
	snprintf(path, sizeof path, "%s/%s", name, attr);
	return sysfs_read_at(dir->fd, path, buf, size);
}

/* The default rule: operstate up or unknown, and the IFF_LOOPBACK flag clear. */
static bool default_rule(const struct iface_dir *dir, const char *name)
{
	char buf[SYSFS_VALUE_MAX];
	ssize_t n = iface_read_attr(dir, name, "operstate", buf, sizeof buf);
	if (n < 0 || (strcmp(buf, "up\n") != 0 && strcmp(buf, "unknown\n") != 0 &&
		      strcmp(buf, "up") != 0 && strcmp(buf, "unknown") != 0))
		return false;
	uint64_t flags = 0;
	n = iface_read_attr(dir, name, "flags", buf, sizeof buf);
	if (n >= 0 && sysfs_parse_hex(buf, (size_t)n, &flags) == 0 && (flags & IFF_LOOPBACK_BIT))
		return false;
	return strcmp(name, "lo") != 0 || n >= 0; /* no flags file: still refuse the name "lo" */
}

bool iface_selector_names_only(const struct iface_selector *sel)
{
	return sel->nregexes == 0 && sel->nliterals > 0;
}

bool iface_selected(const struct iface_selector *sel, const struct iface_dir *dir, const char *name)
{
	if (sel->nregexes == 0 && sel->nliterals == 0)
		return default_rule(dir, name);
	return iface_selector_matches(sel, name);
}

bool iface_selector_matches(const struct iface_selector *sel, const char *name)
{
	if (sel->nliterals > 0 &&
	    bsearch(&name, sel->literals, sel->nliterals, sizeof *sel->literals, compare_strings) != NULL)
		return true;
	for (size_t i = 0; i < sel->nregexes; i++)
		if (matches_whole(&sel->regexes[i], name))
			return true;
	return false;
}

int iface_dir_open(struct iface_dir *dir, const char *sysfs_root, char err[IFACE_ERR_MAX])
{
	char path[4096];
	int len = snprintf(path, sizeof path, "%s/class/net", sysfs_root);
	if (len < 0 || (size_t)len >= sizeof path) {
		snprintf(err, IFACE_ERR_MAX, "sysfs path too long: %.200s", sysfs_root);
		return -1;
	}
	dir->fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int dup_fd = dir->fd < 0 ? -1 : fcntl(dir->fd, F_DUPFD_CLOEXEC, 0);
	dir->dir = dup_fd < 0 ? NULL : fdopendir(dup_fd);
	if (dir->dir == NULL) {
		snprintf(err, IFACE_ERR_MAX, "cannot read %.400s: %s", path, strerror(errno));
		if (dup_fd >= 0)
			close(dup_fd);
		iface_dir_close(dir);
		return -1;
	}
	return 0;
}

void iface_dir_close(struct iface_dir *dir)
{
	if (dir->dir != NULL)
		closedir(dir->dir);
	if (dir->fd >= 0)
		close(dir->fd);
	dir->dir = NULL;
	dir->fd = -1;
}

/* Whether a class/net entry is a plain file (bonding_masters), which is no interface. */
static bool is_regular_file(const struct iface_dir *dir, const struct dirent *entry)
{
	if (entry->d_type != DT_UNKNOWN)
		return entry->d_type == DT_REG;
	struct stat st;
	return fstatat(dir->fd, entry->d_name, &st, 0) == 0 && S_ISREG(st.st_mode);
}

bool iface_dir_has(const struct iface_dir *dir, const char *name)
{
	struct stat st; /* not followed: a listing takes an entry of type link (class/net's own) as is */
	return iface_name_valid(name) && fstatat(dir->fd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	       !S_ISREG(st.st_mode);
}

int iface_dir_scan(struct iface_dir *dir, void (*fn)(const char *name, void *ctx), void *ctx)
{
	DIR *d = dir->dir;
	rewinddir(d);
	for (;;) {
		errno = 0;
		struct dirent *entry = readdir(d);
		if (entry == NULL)
			return errno == 0 ? 0 : -1;
		/* iface_name_valid() refuses "." and ".." (".v0" is a valid name) */
		if (iface_name_valid(entry->d_name) && !is_regular_file(dir, entry))
			fn(entry->d_name, ctx);
	}
}

struct name_list {
	char **names;
	size_t count, capacity;
	bool failed;
	bool (*keep)(const char *name, void *ctx); /* NULL: every name */
	void *keep_ctx;
};

/* Append a copy of name to the name_list in ctx, if it is kept. */
static void collect_name(const char *name, void *ctx)
{
	struct name_list *list = ctx;
	if (list->keep != NULL && !list->keep(name, list->keep_ctx))
		return;
	if (list->failed)
		return;
	if (list->count == list->capacity) {
		size_t capacity = list->capacity ? list->capacity * 2 : 16;
		char **grown = realloc(list->names, capacity * sizeof *grown);
		if (grown == NULL) {
			list->failed = true;
			return;
		}
		list->names = grown;
		list->capacity = capacity;
	}
	list->names[list->count] = strdup(name);
	if (list->names[list->count] == NULL)
		list->failed = true;
	else
		list->count++;
}

int iface_dir_names(struct iface_dir *dir, char ***names, size_t *count)
{
	return iface_dir_names_kept(dir, NULL, NULL, names, count);
}

int iface_dir_names_kept(struct iface_dir *dir, bool (*keep)(const char *name, void *ctx), void *ctx,
			 char ***names, size_t *count)
{
	struct name_list list = {.keep = keep, .keep_ctx = ctx};
	int rc = iface_dir_scan(dir, collect_name, &list);
	if (rc != 0 || list.failed) {
		iface_names_free(list.names, list.count);
		return -1;
	}
	if (list.count > 1)
		qsort(list.names, list.count, sizeof *list.names, compare_strings);
	*names = list.names;
	*count = list.count;
	return 0;
}

void iface_names_free(char **names, size_t count)
{
	for (size_t i = 0; i < count; i++)
		free(names[i]);
	free(names);
}
