/* SPDX-License-Identifier: Apache-2.0 */
/* source_procfs: /proc/net/dev, one pread per tick, parsed in place. */
#include "config.h"

#include "source_procfs.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PROCFS_LINE_MAX 512    /* bytes of one interface line at most: name, 16 counters of 20 digits */
#define PROCFS_PAGE 4096       /* the least a seq_file read gives when more lines follow */
#define PROCFS_LINES_SPARE 16  /* lines of room beyond the listing's, for newcomers between rescans */
#define PROCFS_TX_FIELD 8      /* transmit bytes: the ninth number after "name:" */
#define PROCFS_FIELDS 12       /* the numbers read: each direction's bytes, packets, errs, drop */

/* The counter each of the first PROCFS_FIELDS numbers is (-1: not read). The kernel's "drop" of
 * the receive side is rx_dropped + rx_missed_errors: COUNTER_RX_DROPPED as the other sources
 * make it. */
static const int procfs_counter[PROCFS_FIELDS] = {
	COUNTER_RX_BYTES, COUNTER_RX_PACKETS, COUNTER_RX_ERRORS, COUNTER_RX_DROPPED, -1, -1, -1, -1,
	COUNTER_TX_BYTES, COUNTER_TX_PACKETS, COUNTER_TX_ERRORS, COUNTER_TX_DROPPED,
};

/* A selected, present slot by name. */
struct procfs_name {
	char name[IFACE_NAME_MAX];
	size_t len;
	size_t id;
};

struct procfs_state {
	int fd;                     /* the open file */
	char *buf;                  /* one whole read */
	size_t size;
	struct procfs_name *names;  /* sorted by name (the selection's order) */
	size_t nnames, names_capacity;
	size_t nslots;              /* ids below this are filled at each read */
	struct source_reading *readings; /* during a read only */
};

/* Parse the decimal number at *p (after blanks) up to end; false if there is none or it overflows. */
static bool parse_field(const char **p, const char *end, uint64_t *out)
{
	const char *s = *p;
	while (s < end && *s == ' ')
		s++;
	if (s == end || *s < '0' || *s > '9')
		return false;
	uint64_t value = 0;
	for (; s < end && *s >= '0' && *s <= '9'; s++) {
		unsigned digit = (unsigned)(*s - '0');
		if (value > (UINT64_MAX - digit) / 10)
			return false;
		value = value * 10 + digit;
	}
	*p = s;
	*out = value;
	return true;
}

/* Parse one line (without its newline); true and the name and counters if it is an interface's. */
static bool parse_line(const char *line, const char *end, const char **name, size_t *len,
		       struct counter_set *counters)
{
	while (line < end && *line == ' ')
		line++;
	const char *colon = memchr(line, ':', (size_t)(end - line));
	if (colon == NULL || colon == line || (size_t)(colon - line) >= IFACE_NAME_MAX)
		return false; /* a header, or no name the kernel could give */
	const char *p = colon + 1;
	uint64_t value;
	counters->have = 0;
	for (int field = 0; field < PROCFS_FIELDS; field++) {
		if (!parse_field(&p, end, &value)) {
			if (field <= PROCFS_TX_FIELD)
				return false;
			break; /* the bytes are there: the rest is no value */
		}
		int k = procfs_counter[field];
		if (k >= 0) {
			counters->value[k] = value;
			counters->have |= COUNTER_BIT(k);
		}
	}
	*name = line;
	*len = (size_t)(colon - line);
	return true;
}

size_t procfs_parse(const char *text, size_t len, procfs_line_fn *fn, void *ctx)
{
	const char *p = text, *end = text + len;
	size_t lines = 0;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *line_end = nl != NULL ? nl : end;
		const char *name;
		size_t name_len;
		struct counter_set counters;
		if (parse_line(p, line_end, &name, &name_len, &counters)) {
			fn(name, name_len, &counters, ctx);
			lines++;
		}
		p = nl != NULL ? nl + 1 : end;
	}
	return lines;
}

/* Take the selected set: the present names, sorted, and a buffer for the listing's lines. */
static int procfs_select(struct source *src, const struct source_iface *ifaces, size_t n, size_t listed)
{
	struct procfs_state *st = src->state;
	size_t size = (listed + PROCFS_LINES_SPARE) * PROCFS_LINE_MAX;
	if (size > st->size) {
		char *grown = realloc(st->buf, size);
		if (grown == NULL)
			return -ENOMEM;
		st->buf = grown;
		st->size = size;
	}
	if (n > st->names_capacity) {
		struct procfs_name *grown = realloc(st->names, n * sizeof *grown);
		if (grown == NULL)
			return -ENOMEM;
		st->names = grown;
		st->names_capacity = n;
	}
	st->nnames = 0;
	for (size_t i = 0; i < n; i++) {
		if (ifaces[i].id >= st->nslots)
			st->nslots = ifaces[i].id + 1;
		if (!ifaces[i].present)
			continue;
		struct procfs_name *entry = &st->names[st->nnames++];
		snprintf(entry->name, sizeof entry->name, "%s", ifaces[i].name);
		entry->len = strlen(entry->name);
		entry->id = ifaces[i].id;
	}
	return 0;
}

/* Parse callback: the counters of a selected name go to its slot. */
static void line_one(const char *name, size_t len, const struct counter_set *counters, void *ctx)
{
	struct procfs_state *st = ctx;
	size_t lo = 0, hi = st->nnames;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct procfs_name *entry = &st->names[mid];
		int cmp = strncmp(entry->name, name, len);
		if (cmp == 0 && entry->len != len)
			cmp = entry->len < len ? -1 : 1;
		if (cmp == 0) {
			st->readings[entry->id] = (struct source_reading){*counters, 0};
			return;
		}
		if (cmp < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
}

/* Read the whole file into the buffer from offset 0: the kernel's seq_file gives at most one page
 * of whole lines per read, so read on until a read comes back short by more than a line (the next
 * line would have fitted: the end), or empty; one pread while the file fits in a page. The
 * length, or -errno. */
static ssize_t read_whole(struct procfs_state *st)
{
	size_t len = 0;
	while (len < st->size) {
		ssize_t n = pread(st->fd, st->buf + len, st->size - len, (off_t)len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		len += (size_t)n;
		if ((size_t)n + PROCFS_LINE_MAX < PROCFS_PAGE || n == 0)
			break;
	}
	return (ssize_t)len;
}

/* Read the whole file, then every line to its slot; slots without a line get no reading. */
static void procfs_read(struct source *src, struct source_reading *readings)
{
	struct procfs_state *st = src->state;
	ssize_t n = read_whole(st);
	int missing = n < 0 ? (int)n : -ENODEV;
	for (size_t id = 0; id < st->nslots; id++)
		readings[id].rc = missing;
	if (n <= 0)
		return;
	size_t len = (size_t)n;
	if (len == st->size) /* cut: only the complete lines count */
		while (len > 0 && st->buf[len - 1] != '\n')
			len--;
	st->readings = readings;
	procfs_parse(st->buf, len, line_one, st);
	st->readings = NULL;
}

/* Nothing of its own to say. */
static void procfs_warn(struct source *src, unsigned fresh)
{
	(void)src, (void)fresh;
}

/* Close the file and free the state. */
static void procfs_close(struct source *src)
{
	struct procfs_state *st = src->state;
	close(st->fd);
	free(st->buf);
	free(st->names);
	free(st);
	src->state = NULL;
}

static const struct source_ops procfs_ops = {
	.kind = SOURCE_PROCFS,
	.select = procfs_select,
	.read = procfs_read,
	.warn = procfs_warn,
	.close = procfs_close,
};

int source_procfs_open(struct source *src)
{
	struct procfs_state *st = calloc(1, sizeof *st);
	if (st == NULL)
		return -ENOMEM;
	st->fd = open(src->env.proc_net_dev, O_RDONLY | O_CLOEXEC);
	if (st->fd < 0) {
		int rc = -errno;
		free(st);
		return rc;
	}
	src->ops = &procfs_ops;
	src->state = st;
	return 0;
}
