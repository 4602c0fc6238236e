/* SPDX-License-Identifier: Apache-2.0 */
/* sysfs: read and parse small sysfs attribute files, with errors as values. */
#ifndef KN_SYSFS_H
#define KN_SYSFS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define SYSFS_VALUE_MAX 64 /* longest attribute text we accept, including the newline */

/* Read the attribute at offset 0 of an open fd into buf (NUL-terminated); length or -errno. */
ssize_t sysfs_pread(int fd, char *buf, size_t size);

/* Open dirfd/relpath read-only and close-on-exec; the fd or -errno. */
int sysfs_open(int dirfd, const char *relpath);

/* Read the whole attribute dirfd/relpath into buf (NUL-terminated); length or -errno. */
ssize_t sysfs_read_at(int dirfd, const char *relpath, char *buf, size_t size);

/* Parse a decimal uint64 followed by at most one newline; 0 on success, -1 if malformed. */
int sysfs_parse_u64(const char *text, size_t len, uint64_t *out);

/* Parse a "0x"-prefixed hexadecimal number followed by at most one newline; 0 or -1. */
int sysfs_parse_hex(const char *text, size_t len, uint64_t *out);

#endif
