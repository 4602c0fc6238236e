/* SPDX-License-Identifier: Apache-2.0 */
/* emit: the NVTX side: the "KvikIO NIC" domain, the payload schema, counter groups, samples. */
#ifndef KN_EMIT_H
#define KN_EMIT_H

#include "rate.h"

#include <stdint.h>

#define EMIT_DOMAIN_NAME "KvikIO NIC"
#define EMIT_SCHEMA_NAME "NIC bandwidth" /* each group's schema: "NIC bandwidth: <group>" */
#define EMIT_UNIT "MiB/s"
#define EMIT_TOTAL_GROUP "total"
#define EMIT_GROUP_NAME_MAX 80 /* longest group name with its NUL: an RDMA port's "<dev>:<n>"
                                * (63 + 1 + 10 characters; an interface name has 15) */

/* Create the domain (a no-op unless a tool is injected). */
void emit_init(void);

/* Register a counter group named name (an interface, or "total") with a schema of its own; its id. */
uint64_t emit_register_group(const char *name);

/* Emit one rx/tx sample for group. */
void emit_sample(uint64_t group, const struct rate *rate);

/* Emit "no value" (NaN rx and tx) for group: its counters could not be read honestly this tick. */
void emit_no_value(uint64_t group);

#endif
