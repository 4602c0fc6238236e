/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz_netlink: libFuzzer target for the rtnetlink reply parser (nlparse_walk). */
#include "config.h"

#include "nlparse.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define FUZZ_HEAD 9 /* portid (4 bytes), seq (4 bytes), sender choice (1 byte), then the datagram */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Stats callback: an ifindex is always positive. */
static void fuzz_stats(int ifindex, const struct counter_set *counters, void *ctx)
{
	(void)counters;
	if (ifindex <= 0 || ctx == NULL)
		abort();
	++*(size_t *)ctx;
}

/* Link callback: a name is 1..15 bytes and terminated. */
static void fuzz_link(int ifindex, const char *name, void *ctx)
{
	size_t len = strnlen(name, 16);
	if (ifindex <= 0 || len == 0 || len > 15 || ctx == NULL)
		abort();
	++*(size_t *)ctx;
}

/* One input: the expected portid and seq, who sent it, and the datagram, copied exactly at an
 * odd address (so that reading past it or misaligned reads are caught). */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < FUZZ_HEAD)
		return 0;
	size_t calls = 0;
	struct nlparse_dump dump = {.stats = fuzz_stats, .link = fuzz_link, .ctx = &calls};
	memcpy(&dump.portid, data, 4);
	memcpy(&dump.seq, data + 4, 4);
	uint32_t sender = data[8] & 1 ? 1 : 0;
	size_t len = size - FUZZ_HEAD;
	unsigned char *copy = malloc(len + 1);
	if (copy == NULL)
		return 0;
	memcpy(copy + 1, data + FUZZ_HEAD, len);
	int rc = nlparse_walk(&dump, copy + 1, len, sender);
	free(copy);
	if (rc != NLPARSE_MORE && rc != NLPARSE_DONE && (rc >= 0 || rc < -4095))
		abort(); /* only the two results or an errno */
	if (sender != 0 && (rc != NLPARSE_MORE || calls != 0 || dump.interrupted))
		abort(); /* a datagram not from the kernel is never used */
	return 0;
}
