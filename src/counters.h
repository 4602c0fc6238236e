/* SPDX-License-Identifier: Apache-2.0 */
/* counters: an interface's rx_bytes/tx_bytes files, opened once and re-read with pread. */
#ifndef KN_COUNTERS_H
#define KN_COUNTERS_H

#include "rate.h"

/* The two held counter files of one interface; fds are -1 while closed. */
struct counter_files {
	int rx_fd;
	int tx_fd;
};

/* Mark both files closed (call before first use). */
void counters_init(struct counter_files *files);

/* Open <name>/statistics/{rx,tx}_bytes under the class/net folder dirfd; 0 or -errno. */
int counters_open(struct counter_files *files, int dirfd, const char *name);

/* Read both counters; 0, or -errno / -EINVAL (malformed text) when there is no reading. */
int counters_read(const struct counter_files *files, struct counter_pair *out);

/* Read <name>/statistics/{rx,tx}_bytes under dirfd by opening, reading and closing each (for
 * an interface that got no held files); 0, or -errno / -EINVAL when there is no reading. */
int counters_read_at(int dirfd, const char *name, struct counter_pair *out);

/* Close both files (safe to call on closed files). */
void counters_close(struct counter_files *files);

#endif
