/* SPDX-License-Identifier: Apache-2.0 */
/* counters: an interface's statistics files, opened once and re-read with pread. */
#include "config.h"

#include "counters.h"
#include "iface.h"
#include "sysfs.h"

#include <errno.h>
#include <stdio.h>
#include <unistd.h>

/* The file of each slot under <name>/statistics/. */
static const char *const file_names[COUNTERS_FILES] = {
	[COUNTER_RX_BYTES] = "rx_bytes",     [COUNTER_TX_BYTES] = "tx_bytes",
	[COUNTER_RX_PACKETS] = "rx_packets", [COUNTER_TX_PACKETS] = "tx_packets",
	[COUNTER_RX_ERRORS] = "rx_errors",   [COUNTER_TX_ERRORS] = "tx_errors",
	[COUNTER_RX_DROPPED] = "rx_dropped", [COUNTER_TX_DROPPED] = "tx_dropped",
	[COUNTERS_MISSED] = "rx_missed_errors",
};

void counters_init(struct counter_files *files)
{
	for (int i = 0; i < COUNTERS_FILES; i++)
		files->fd[i] = -1;
	files->missed_failed = false;
}

/* Whether file slot i is wanted for the counters in mask (bytes always are). */
static bool wanted(int i, unsigned mask)
{
	if (i == COUNTERS_MISSED)
		return (mask & COUNTER_BIT(COUNTER_RX_DROPPED)) != 0;
	return ((mask | COUNTER_BYTES) & COUNTER_BIT(i)) != 0;
}

unsigned counters_files_needed(unsigned mask)
{
	unsigned n = 0;
	for (int i = 0; i < COUNTERS_FILES; i++)
		n += wanted(i, mask);
	return n;
}

#define COUNTER_PATH_MAX (IFACE_NAME_MAX + 32)

/* Write <name>/statistics/<file of slot i> to path (COUNTER_PATH_MAX bytes). */
static void counter_path(char path[COUNTER_PATH_MAX], const char *name, int i)
{
	snprintf(path, COUNTER_PATH_MAX, "%s/statistics/%s", name, file_names[i]);
}

int counters_open(struct counter_files *files, int dirfd, const char *name, unsigned mask)
{
	counters_close(files);
	char path[COUNTER_PATH_MAX];
	for (int i = 0; i < COUNTERS_FILES; i++) {
		if (!wanted(i, mask))
			continue;
		counter_path(path, name, i);
		int fd = sysfs_open(dirfd, path);
		if (fd < 0 && i <= COUNTER_TX_BYTES) {
			counters_close(files);
			return fd;
		}
		if (fd < 0 && i == COUNTERS_MISSED && fd != -ENOENT)
			files->missed_failed = true; /* there but unopenable: rx_dropped has no value */
		files->fd[i] = fd < 0 ? -1 : fd;
	}
	return 0;
}

bool counters_held(const struct counter_files *files)
{
	return files->fd[COUNTER_RX_BYTES] >= 0;
}

/* Parse the text of one counter file (n bytes, or -errno); 0 or a negative errno. */
static int parse(const char *buf, ssize_t n, uint64_t *out)
{
	if (n < 0)
		return (int)n;
	return sysfs_parse_u64(buf, (size_t)n, out) == 0 ? 0 : -EINVAL;
}

/* pread one counter file and parse it; 0 or a negative errno. */
static int read_one(int fd, uint64_t *out)
{
	char buf[SYSFS_VALUE_MAX];
	if (fd < 0)
		return -EBADF;
	return parse(buf, sysfs_pread(fd, buf, sizeof buf), out);
}

/* Fold slot values into out: rx_dropped takes rx_missed_errors in (absent: none missed). When
 * rx_missed_errors exists but could not be read, rx_dropped has no value: alone it would be a
 * lower reading than the other sources give, and the next good one a fake burst of drops. */
static void fold(const uint64_t value[COUNTERS_FILES], unsigned have, bool missed_failed,
		 struct counter_set *out)
{
	for (int k = 0; k < COUNTER_KINDS; k++)
		out->value[k] = value[k];
	out->have = have & COUNTER_ALL;
	if (missed_failed)
		out->have &= ~COUNTER_BIT(COUNTER_RX_DROPPED);
	else if ((have & COUNTER_BIT(COUNTER_RX_DROPPED)) && (have & (1u << COUNTERS_MISSED)))
		out->value[COUNTER_RX_DROPPED] += value[COUNTERS_MISSED];
}

int counters_read(const struct counter_files *files, struct counter_set *out)
{
	uint64_t value[COUNTERS_FILES] = {0};
	unsigned have = 0;
	bool missed_failed = files->missed_failed;
	for (int i = 0; i < COUNTERS_FILES; i++) {
		if (files->fd[i] < 0 && i > COUNTER_TX_BYTES)
			continue;
		int rc = read_one(files->fd[i], &value[i]);
		if (rc != 0 && i <= COUNTER_TX_BYTES)
			return rc;
		have |= rc == 0 ? 1u << i : 0;
		missed_failed |= rc != 0 && i == COUNTERS_MISSED;
	}
	fold(value, have, missed_failed, out);
	return 0;
}

/* Open, read, close and parse the file of slot i of <name> under dirfd; 0 or a negative errno. */
static int read_at(int dirfd, const char *name, int i, uint64_t *out)
{
	char path[COUNTER_PATH_MAX], buf[SYSFS_VALUE_MAX];
	counter_path(path, name, i);
	return parse(buf, sysfs_read_at(dirfd, path, buf, sizeof buf), out);
}

int counters_read_at(int dirfd, const char *name, unsigned mask, struct counter_set *out)
{
	uint64_t value[COUNTERS_FILES] = {0};
	unsigned have = 0;
	bool missed_failed = false;
	for (int i = 0; i < COUNTERS_FILES; i++) {
		if (!wanted(i, mask))
			continue;
		int rc = read_at(dirfd, name, i, &value[i]);
		if (rc != 0 && i <= COUNTER_TX_BYTES)
			return rc;
		have |= rc == 0 ? 1u << i : 0;
		missed_failed |= rc != 0 && rc != -ENOENT && i == COUNTERS_MISSED;
	}
	fold(value, have, missed_failed, out);
	return 0;
}

void counters_close(struct counter_files *files)
{
	for (int i = 0; i < COUNTERS_FILES; i++)
		if (files->fd[i] >= 0)
			close(files->fd[i]);
	counters_init(files);
}
