/* SPDX-License-Identifier: Apache-2.0 */
/* sysfs: read and parse small sysfs attribute files, with errors as values. */
#include "config.h"

#include "sysfs.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

ssize_t sysfs_pread(int fd, char *buf, size_t size)
{
	ssize_t n;
	do
		n = pread(fd, buf, size - 1, 0);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	return n;
}

int sysfs_open(int dirfd, const char *relpath)
{
	int fd;
	do
		fd = openat(dirfd, relpath, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	while (fd < 0 && errno == EINTR);
	return fd < 0 ? -errno : fd;
}

ssize_t sysfs_read_at(int dirfd, const char *relpath, char *buf, size_t size)
{
	int fd = sysfs_open(dirfd, relpath);
	if (fd < 0)
		return fd;
	ssize_t n = sysfs_pread(fd, buf, size);
	close(fd);
	return n;
}

/* Length of text without one trailing newline. */
static size_t strip_newline(const char *text, size_t len)
{
	return (len > 0 && text[len - 1] == '\n') ? len - 1 : len;
}

int sysfs_parse_u64(const char *text, size_t len, uint64_t *out)
{
	len = strip_newline(text, len);
	if (len == 0 || len > 20)
		return -1;
	uint64_t value = 0;
	for (size_t i = 0; i < len; i++) {
		unsigned digit = (unsigned)(text[i] - '0');
		if (digit > 9 || (i >= 19 && value > (UINT64_MAX - digit) / 10)) /* 19 digits always fit */
			return -1;
		value = value * 10 + digit;
	}
	*out = value;
	return 0;
}

/* Value of one hexadecimal digit, or -1. */
static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int sysfs_parse_hex(const char *text, size_t len, uint64_t *out)
{
	len = strip_newline(text, len);
	if (len < 3 || len > 18 || text[0] != '0' || (text[1] != 'x' && text[1] != 'X'))
		return -1;
	uint64_t value = 0;
	for (size_t i = 2; i < len; i++) {
		int digit = hex_digit(text[i]);
		if (digit < 0)
			return -1;
		value = (value << 4) | (uint64_t)digit;
	}
	*out = value;
	return 0;
}
