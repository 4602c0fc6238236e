/* SPDX-License-Identifier: Apache-2.0 */
/* counters: an interface's statistics files (rx_bytes, tx_bytes and those the chosen metrics
 * need), opened once and re-read with pread. */
#ifndef KN_COUNTERS_H
#define KN_COUNTERS_H

#include "rate.h"

#include <stdbool.h>

/* The file slots: one per counter, and rx_missed_errors, which COUNTER_RX_DROPPED adds in. */
#define COUNTERS_MISSED COUNTER_KINDS
#define COUNTERS_FILES (COUNTER_KINDS + 1)

/* The held counter files of one interface; fds are -1 while closed, not wanted or absent. */
struct counter_files {
	int fd[COUNTERS_FILES];
	bool missed_failed; /* rx_missed_errors exists but could not be opened: rx_dropped has no value */
};

/* Mark every file closed (call before first use). */
void counters_init(struct counter_files *files);

/* How many files an interface holds for the counters in mask (COUNTER_BIT()s). */
unsigned counters_files_needed(unsigned mask);

/* Open <name>/statistics/{rx,tx}_bytes under the class/net folder dirfd, and those of the other
 * counters in mask that exist (an absent one is no value, not an error); 0, or -errno when a
 * byte counter cannot be opened. */
int counters_open(struct counter_files *files, int dirfd, const char *name, unsigned mask);

/* Whether the files are held (the byte counters are open). */
bool counters_held(const struct counter_files *files);

/* Read the held counters into out (out->have says which); 0, or -errno / -EINVAL (malformed
 * text) when the byte counters give no reading. */
int counters_read(const struct counter_files *files, struct counter_set *out);

/* Read the counters in mask of <name> under dirfd by opening, reading and closing each file (for
 * an interface that got no held files); 0, or -errno / -EINVAL when the byte counters give no
 * reading. */
int counters_read_at(int dirfd, const char *name, unsigned mask, struct counter_set *out);

/* Close every file (safe to call on closed files). */
void counters_close(struct counter_files *files);

#endif
