/* SPDX-License-Identifier: Apache-2.0 */
/* rdma: the RDMA ports under <sysfs>/class/infiniband: discovery, their byte counters, rates. */
#include "config.h"

#include "rdma.h"

#include "message.h"
#include "sysfs.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define RDMA_PATH_MAX 256 /* "<dev>/ports/<n>/hw_counters/<file>" with room to spare */

/* The files of one counter kind: per direction a required file and an optional one. */
struct rdma_layout {
	enum rdma_counters kind;
	const char *dir;          /* under ports/<n>/ */
	const char *file[2][2];   /* [rx, tx][required, optional or NULL] */
};

/* In order of preference: the kernel's standard files, then the drivers' hw_counters. */
static const struct rdma_layout layouts[] = {
	{RDMA_COUNTERS_STANDARD, "counters", {{"port_rcv_data", NULL}, {"port_xmit_data", NULL}}},
	{RDMA_COUNTERS_IONIC, "hw_counters",
	 {{"rx_rdma_ucast_bytes", "rx_rdma_mcast_bytes"}, {"tx_rdma_ucast_bytes", "tx_rdma_mcast_bytes"}}},
	{RDMA_COUNTERS_BNXT, "hw_counters", {{"rx_bytes", NULL}, {"tx_bytes", NULL}}},
};

void rdma_files_init(struct rdma_files *files)
{
	files->kind = RDMA_COUNTERS_NONE;
	for (int d = 0; d < 2; d++)
		files->fd[d][0] = files->fd[d][1] = -1;
}

void rdma_files_close(struct rdma_files *files)
{
	for (int d = 0; d < 2; d++)
		for (int p = 0; p < 2; p++)
			if (files->fd[d][p] >= 0)
				close(files->fd[d][p]);
	rdma_files_init(files);
}

/* pread one counter file and parse it; 0 or a negative errno (-EINVAL: empty or malformed). */
static int read_value(int fd, uint64_t *out)
{
	char buf[SYSFS_VALUE_MAX];
	ssize_t n = sysfs_pread(fd, buf, sizeof buf);
	if (n < 0)
		return (int)n;
	return sysfs_parse_u64(buf, (size_t)n, out) == 0 ? 0 : -EINVAL;
}

/* Open <dev>/ports/<port>/<dir>/<file> under dirfd; the fd or -errno. */
static int open_file(int dirfd, const char *dev, const char *port, const char *dir, const char *file)
{
	char path[RDMA_PATH_MAX];
	int len = snprintf(path, sizeof path, "%s/ports/%s/%s/%s", dev, port, dir, file);
	if (len < 0 || (size_t)len >= sizeof path)
		return -ENAMETOOLONG;
	return sysfs_open(dirfd, path);
}

/* Open the files of one layout, each required one reading a number; 0 or -errno. */
static int open_layout(struct rdma_files *files, int dirfd, const char *dev, const char *port,
		       const struct rdma_layout *layout)
{
	for (int d = 0; d < 2; d++) {
		uint64_t value;
		int fd = open_file(dirfd, dev, port, layout->dir, layout->file[d][0]);
		files->fd[d][0] = fd < 0 ? -1 : fd;
		int rc = fd < 0 ? fd : read_value(fd, &value);
		if (rc != 0) {
			rdma_files_close(files);
			return rc;
		}
		if (layout->file[d][1] != NULL) {
			fd = open_file(dirfd, dev, port, layout->dir, layout->file[d][1]);
			files->fd[d][1] = (fd >= 0 && read_value(fd, &value) == 0) ? fd : -1;
			if (fd >= 0 && files->fd[d][1] < 0)
				close(fd); /* an optional file that says nothing is left out */
		}
	}
	files->kind = layout->kind;
	return 0;
}

int rdma_files_open(struct rdma_files *files, int dirfd, const char *dev, const char *port)
{
	rdma_files_close(files);
	for (size_t i = 0; i < sizeof layouts / sizeof layouts[0]; i++)
		if (open_layout(files, dirfd, dev, port, &layouts[i]) == 0)
			return 0;
	return -ENOENT;
}

/* Read one direction: the sum of its files (one raw value for the standard kind); 0 or -errno. */
static int read_direction(const struct rdma_files *files, int d, uint64_t *out)
{
	uint64_t sum = 0;
	for (int p = 0; p < 2; p++) {
		uint64_t value;
		if (files->fd[d][p] < 0)
			continue;
		int rc = read_value(files->fd[d][p], &value);
		if (rc != 0)
			return rc;
		if (value > UINT64_MAX - sum)
			return -ERANGE;
		sum += value;
	}
	*out = sum;
	return 0;
}

int rdma_files_read(const struct rdma_files *files, bool wide[2], struct counter_set *out)
{
	if (files->kind == RDMA_COUNTERS_NONE)
		return -EBADF;
	uint64_t value[2];
	bool saturated = false;
	for (int d = 0; d < 2; d++) {
		int rc = read_direction(files, d, &value[d]);
		if (rc != 0)
			return rc;
		if (files->kind != RDMA_COUNTERS_STANDARD)
			continue;
		wide[d] = wide[d] || value[d] > RDMA_COUNTER32_MAX;
		saturated = saturated || (value[d] == RDMA_COUNTER32_MAX && !wide[d]);
		if (value[d] > UINT64_MAX / RDMA_WORD_OCTETS)
			return -ERANGE;
		value[d] *= RDMA_WORD_OCTETS;
	}
	if (saturated)
		return RDMA_SATURATED;
	*out = (struct counter_set){.have = COUNTER_BYTES};
	out->value[COUNTER_RX_BYTES] = value[0];
	out->value[COUNTER_TX_BYTES] = value[1];
	return 0;
}

void rdma_init(struct rdma_set *set, const char *sysfs_root, const struct iface_selector *sel)
{
	*set = (struct rdma_set){.sysfs_root = sysfs_root, .sel = sel};
}

/* Whether name can be a device's folder: 1 to 63 bytes, no '/', blank or control byte, not . or ..*/
static bool device_name_valid(const char *name)
{
	size_t len = strnlen(name, RDMA_DEVICE_NAME_MAX);
	if (len == 0 || len >= RDMA_DEVICE_NAME_MAX || strcmp(name, ".") == 0 || strcmp(name, "..") == 0)
		return false;
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)name[i];
		if (c == '/' || c <= ' ' || c == 0x7f)
			return false;
	}
	return true;
}

/* Whether name can be a port's folder: 1 to 10 decimal digits. */
static bool port_name_valid(const char *name)
{
	size_t len = strnlen(name, RDMA_PORT_DIGITS_MAX + 1);
	if (len == 0 || len > RDMA_PORT_DIGITS_MAX)
		return false;
	for (size_t i = 0; i < len; i++)
		if (name[i] < '0' || name[i] > '9')
			return false;
	return true;
}

/* Index of name in the sorted table, or of where it would go; *found says which. */
static size_t find_slot(const struct rdma_set *set, const char *name, bool *found)
{
	size_t lo = 0, hi = set->count;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int cmp = strcmp(set->ports[mid].name, name);
		if (cmp == 0) {
			*found = true;
			return mid;
		}
		if (cmp < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	*found = false;
	return lo;
}

/* Insert a new port named name (dev_len bytes of device) at slot; NULL when out of room. */
static struct rdma_port *insert_at(struct rdma_set *set, size_t slot, const char *name, size_t dev_len)
{
	if (set->count == RDMA_MAX_PORTS) {
		set->truncated = true;
		return NULL;
	}
	if (set->count == set->capacity) {
		size_t capacity = set->capacity ? set->capacity * 2 : 8;
		struct rdma_port *grown = realloc(set->ports, capacity * sizeof *grown);
		if (grown == NULL)
			return NULL;
		set->ports = grown;
		set->capacity = capacity;
	}
	struct rdma_port *port = &set->ports[slot];
	memmove(port + 1, port, (set->count - slot) * sizeof *port);
	*port = (struct rdma_port){.id = set->count, .dev_len = dev_len};
	rdma_files_init(&port->files);
	set->count++;
	memcpy(port->name, name, strlen(name) + 1); /* the names were checked for length */
	return port;
}

/* Open the port's counter files again: its device may be a new one under the old name. */
static void port_reopen(struct rdma_set *set, struct rdma_port *port, int dirfd)
{
	char dev[RDMA_DEVICE_NAME_MAX];
	memcpy(dev, port->name, port->dev_len);
	dev[port->dev_len] = '\0';
	port->have_prev = false;
	port->failed = false;
	port->wide[0] = port->wide[1] = false;
	if (rdma_files_open(&port->files, dirfd, dev, port->name + port->dev_len + 1) != 0) {
		port->notes |= RDMA_NOTE_NO_COUNTERS;
		set->pending = set->pending || !(port->noted & RDMA_NOTE_NO_COUNTERS);
	}
}

/* Note port <dev>:<num> as listed, adding it if it is new and selected. */
static void offer_port(struct rdma_set *set, int dirfd, const char *dev, const char *num)
{
	char name[RDMA_GROUP_NAME_MAX];
	snprintf(name, sizeof name, "%s:%s", dev, num); /* both checked: it fits */
	bool found;
	size_t slot = find_slot(set, name, &found);
	struct rdma_port *port = found ? &set->ports[slot] : NULL;
	if (port == NULL) {
		if (set->sel != NULL && !iface_selector_matches(set->sel, name))
			return;
		port = insert_at(set, slot, name, strlen(dev));
		if (port == NULL)
			return;
	}
	bool was_listed = port->seen_scan + 1 == set->scans && port->seen_scan != 0;
	port->seen_scan = set->scans;
	if (!was_listed || port->files.kind == RDMA_COUNTERS_NONE || port->failed)
		port_reopen(set, port, dirfd);
}

/* Open the folder relpath under dirfd (AT_FDCWD: a path) for listing; NULL with errno. */
static DIR *open_listing(int dirfd, const char *relpath)
{
	int fd = openat(dirfd, relpath, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = fd < 0 ? NULL : fdopendir(fd);
	if (d == NULL && fd >= 0) {
		int saved = errno;
		close(fd);
		errno = saved;
	}
	return d;
}

/* The next entry name of d that passes valid(); NULL at the end (errno 0) or on error. */
static const char *next_entry(DIR *d, bool (*valid)(const char *))
{
	for (;;) {
		errno = 0;
		struct dirent *entry = readdir(d);
		if (entry == NULL)
			return NULL;
		if (valid(entry->d_name))
			return entry->d_name;
	}
}

/* Offer every port of device dev. A device whose ports folder cannot be read (gone meanwhile,
 * no device, no permission) lists no port: its ports have no value, the others go on. */
static void scan_device(struct rdma_set *set, int dirfd, const char *dev)
{
	char path[RDMA_PATH_MAX];
	snprintf(path, sizeof path, "%s/ports", dev);
	DIR *d = open_listing(dirfd, path);
	if (d == NULL)
		return;
	const char *num;
	while ((num = next_entry(d, port_name_valid)) != NULL)
		offer_port(set, dirfd, dev, num);
	closedir(d);
}

/* Offer every port of every device under class/infiniband; -1 if that folder cannot be read. */
static int scan(struct rdma_set *set)
{
	char path[4096];
	int len = snprintf(path, sizeof path, "%s/class/infiniband", set->sysfs_root);
	if (len < 0 || (size_t)len >= sizeof path) {
		errno = ENAMETOOLONG; /* rdma.h promises errno; the caller prints it */
		return -1;
	}
	DIR *d = open_listing(AT_FDCWD, path);
	if (d == NULL)
		return errno == ENOENT ? 0 : -1; /* no RDMA stack (yet): no port */
	int class_fd = dirfd(d);
	const char *dev;
	while ((dev = next_entry(d, device_name_valid)) != NULL)
		scan_device(set, class_fd, dev);
	int rc = errno == 0 ? 0 : -1;
	closedir(d);
	return rc;
}

int rdma_rescan(struct rdma_set *set)
{
	set->scans++;
	int rc = scan(set);
	for (size_t i = 0; i < set->count; i++) {
		struct rdma_port *port = &set->ports[i];
		if (port->seen_scan != set->scans && rc == 0) { /* vanished: no value until it returns */
			rdma_files_close(&port->files);
			port->have_prev = false;
		}
	}
	return rc;
}

/* Turn one port's reading into its rate; no reading drops the baseline. */
static void tick_one(struct rdma_set *set, struct rdma_port *port, double dt_s)
{
	port->valid = false;
	struct counter_set cur;
	int rc = rdma_files_read(&port->files, port->wide, &cur);
	if (rc != 0) {
		port->have_prev = false;
		port->failed = rc < 0 && port->files.kind != RDMA_COUNTERS_NONE;
		if (rc == RDMA_SATURATED) {
			port->notes |= RDMA_NOTE_SATURATED;
			set->pending = set->pending || !(port->noted & RDMA_NOTE_SATURATED);
		}
		return;
	}
	port->failed = false; /* the last read worked: no re-open (and lost baseline) at the rescan */
	if (port->have_prev)
		port->valid = rate_compute(&port->prev, &cur, dt_s, 0.0, &port->rate); /* no util */
	port->prev = cur;
	port->have_prev = true;
}

void rdma_tick(struct rdma_set *set, double dt_s)
{
	for (size_t i = 0; i < set->count; i++)
		tick_one(set, &set->ports[i], dt_s);
}

size_t rdma_count(const struct rdma_set *set)
{
	return set->count;
}

const char *rdma_name(const struct rdma_set *set, size_t i)
{
	return set->ports[i].name;
}

void rdma_warn(struct rdma_set *set)
{
	if (set->truncated && !set->truncated_noted)
		message_print("more than %d RDMA ports selected; monitoring the first %d", RDMA_MAX_PORTS,
			      RDMA_MAX_PORTS);
	set->truncated_noted = set->truncated;
	if (!set->pending)
		return;
	set->pending = false;
	for (size_t i = 0; i < set->count; i++) {
		struct rdma_port *port = &set->ports[i];
		unsigned fresh = port->notes & ~port->noted;
		if (fresh & RDMA_NOTE_SATURATED)
			message_print("RDMA port %s: a 32-bit data counter is saturated at 0xFFFFFFFF; "
				      "no value until it is reset", port->name);
		if (fresh & RDMA_NOTE_NO_COUNTERS)
			message_print("RDMA port %s: no byte counters (counters/port_rcv_data and "
				      "port_xmit_data absent or empty, no known hw_counters); no value",
				      port->name);
		port->noted |= fresh;
	}
}

void rdma_free(struct rdma_set *set)
{
	for (size_t i = 0; i < set->count; i++)
		rdma_files_close(&set->ports[i].files);
	free(set->ports);
	*set = (struct rdma_set){0};
}
