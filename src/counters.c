/* SPDX-License-Identifier: Apache-2.0 */
/* counters: an interface's rx_bytes/tx_bytes files, opened once and re-read with pread. */
#include "config.h"

#include "counters.h"
#include "iface.h"
#include "sysfs.h"

#include <errno.h>
#include <stdio.h>
#include <unistd.h>

void counters_init(struct counter_files *files)
{
	files->rx_fd = -1;
	files->tx_fd = -1;
}

#define COUNTER_PATH_MAX (IFACE_NAME_MAX + 32)

/* Write <name>/statistics/<counter> to path (COUNTER_PATH_MAX bytes). */
static void counter_path(char path[COUNTER_PATH_MAX], const char *name, const char *counter)
{
	snprintf(path, COUNTER_PATH_MAX, "%s/statistics/%s", name, counter);
}

/* Open <name>/statistics/<counter> under dirfd; the fd or -errno. */
static int open_counter(int dirfd, const char *name, const char *counter)
{
	char path[COUNTER_PATH_MAX];
	counter_path(path, name, counter);
	return sysfs_open(dirfd, path);
}

int counters_open(struct counter_files *files, int dirfd, const char *name)
{
	counters_close(files);
	int rx = open_counter(dirfd, name, "rx_bytes");
	if (rx < 0)
		return rx;
	int tx = open_counter(dirfd, name, "tx_bytes");
	if (tx < 0) {
		close(rx);
		return tx;
	}
	files->rx_fd = rx;
	files->tx_fd = tx;
	return 0;
}

/* pread one counter file and parse it; 0 or a negative errno. */
static int read_one(int fd, uint64_t *out)
{
	char buf[SYSFS_VALUE_MAX];
	if (fd < 0)
		return -EBADF;
	ssize_t n = sysfs_pread(fd, buf, sizeof buf);
	if (n < 0)
		return (int)n;
	return sysfs_parse_u64(buf, (size_t)n, out) == 0 ? 0 : -EINVAL;
}

int counters_read(const struct counter_files *files, struct counter_pair *out)
{
	int rc = read_one(files->rx_fd, &out->rx);
	return rc != 0 ? rc : read_one(files->tx_fd, &out->tx);
}

/* Open, read, close and parse <name>/statistics/<counter> under dirfd; 0 or a negative errno. */
static int read_at(int dirfd, const char *name, const char *counter, uint64_t *out)
{
	char path[COUNTER_PATH_MAX], buf[SYSFS_VALUE_MAX];
	counter_path(path, name, counter);
	ssize_t n = sysfs_read_at(dirfd, path, buf, sizeof buf);
	if (n < 0)
		return (int)n;
	return sysfs_parse_u64(buf, (size_t)n, out) == 0 ? 0 : -EINVAL;
}

int counters_read_at(int dirfd, const char *name, struct counter_pair *out)
{
	int rc = read_at(dirfd, name, "rx_bytes", &out->rx);
	return rc != 0 ? rc : read_at(dirfd, name, "tx_bytes", &out->tx);
}

void counters_close(struct counter_files *files)
{
	if (files->rx_fd >= 0)
		close(files->rx_fd);
	if (files->tx_fd >= 0)
		close(files->tx_fd);
	counters_init(files);
}
