/* SPDX-License-Identifier: Apache-2.0 */
/* source_sysfs: each selected interface's statistics/{rx,tx}_bytes (and the files the chosen
 * metrics need: counters.h), held open and re-read with pread. The soft open-file limit is raised
 * as far as the held files need, up to the hard one; the interfaces whose files still do not fit
 * are read by opening them at each tick (SOURCE_NOTE_FDS). A failed read closes the files until
 * the next rescan re-opens them. */
#ifndef KN_SOURCE_SYSFS_H
#define KN_SOURCE_SYSFS_H

#include "counters.h"
#include "source.h"

/* Make src the sysfs source (on src->env.classnet_fd); 0 or -ENOMEM. */
int source_sysfs_open(struct source *src);

/* The counter files of slot id (fds -1 while not held); NULL when src is not sysfs or id is past
 * the slots (for tests). */
const struct counter_files *source_sysfs_files(const struct source *src, size_t id);

/* Whether slot id is read by opening its files at each tick (for tests). */
bool source_sysfs_per_tick(const struct source *src, size_t id);

#endif
