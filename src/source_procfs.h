/* SPDX-License-Identifier: Apache-2.0 */
/* source_procfs: every interface's counters from /proc/net/dev, read per tick into a buffer sized
 * at the rescan (one pread while the file fits in a page, about 28 interfaces; one more per page
 * after), parsed in place (no allocation). What works in sandboxes whose sysfs has
 * no statistics folders (gVisor). The same 64-bit counters as sysfs and netlink. */
#ifndef KN_SOURCE_PROCFS_H
#define KN_SOURCE_PROCFS_H

#include "source.h"

#include <stddef.h>

/* Called for each interface line: its name (len bytes, not NUL-terminated) and counters (the
 * bytes; packets, errs and drop of each direction where the line has them). */
typedef void procfs_line_fn(const char *name, size_t len, const struct counter_set *counters, void *ctx);

/* Parse the text of /proc/net/dev (len bytes, need not be NUL-terminated); call fn for every
 * well-formed interface line, skip the headers and malformed lines; returns the lines given to fn. */
size_t procfs_parse(const char *text, size_t len, procfs_line_fn *fn, void *ctx);

/* Make src the procfs source, reading src->env.proc_net_dev; 0 or -errno. */
int source_procfs_open(struct source *src);

#endif
