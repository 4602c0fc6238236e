/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz_sysfs: libFuzzer target for the counter-file parsers, checked against strtoull. */
#include "config.h"

#include "sysfs.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Whether text[from, len) is non-empty and made only of characters in set. */
static bool fuzz_only(const char *text, size_t from, size_t len, const char *set)
{
	if (from >= len)
		return false;
	for (size_t i = from; i < len; i++)
		if (text[i] == '\0' || strchr(set, text[i]) == NULL)
			return false;
	return true;
}

/* The reference: strtoull on a NUL-terminated copy; true if the whole text is a number in range. */
static bool fuzz_reference(const char *text, size_t len, int base, uint64_t *out)
{
	char copy[64];
	if (len >= sizeof copy)
		return false;
	memcpy(copy, text, len);
	copy[len] = '\0';
	char *end = NULL;
	errno = 0;
	unsigned long long value = strtoull(copy, &end, base);
	*out = value;
	return errno == 0 && *end == '\0';
}

/* Compare sysfs_parse_u64 (decimal, one optional newline, at most 20 digits) with the reference. */
static void fuzz_u64(const char *text, size_t size)
{
	size_t len = (size > 0 && text[size - 1] == '\n') ? size - 1 : size;
	uint64_t got = 0, want = 0;
	bool ok = sysfs_parse_u64(text, size, &got) == 0;
	bool expect = len <= 20 && fuzz_only(text, 0, len, "0123456789") && fuzz_reference(text, len, 10, &want);
	if (ok != expect || (ok && got != want))
		abort();
}

/* Compare sysfs_parse_hex ("0x" and 1..16 hex digits, one optional newline) with the reference. */
static void fuzz_hex(const char *text, size_t size)
{
	size_t len = (size > 0 && text[size - 1] == '\n') ? size - 1 : size;
	uint64_t got = 0, want = 0;
	bool ok = sysfs_parse_hex(text, size, &got) == 0;
	bool expect = len >= 3 && len <= 18 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X') &&
		      fuzz_only(text, 2, len, "0123456789abcdefABCDEF") && fuzz_reference(text + 2, len - 2, 16, &want);
	if (ok != expect || (ok && got != want))
		abort();
}

/* One input: an exact-size copy (so reading past it is caught), parsed both ways. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size ? size : 1);
	if (text == NULL)
		return 0;
	memcpy(text, data, size);
	fuzz_u64(text, size);
	fuzz_hex(text, size);
	free(text);
	return 0;
}
