/* SPDX-License-Identifier: Apache-2.0 */
/* emit: the NVTX side: the "KvikIO NIC" domain, the payload schema, counter groups, samples. */
#ifndef KN_EMIT_H
#define KN_EMIT_H

#include "metric.h"
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

/* Make every group carry the fields of set, in its order (before the first group; without it,
 * rx and tx). Without -m the schema is release 0.1's: two entries, the group's counter semantics
 * in MiB/s. With -m each entry carries counter semantics with its own unit, and the group none
 * (NVTX applies a group's semantics to every entry). */
void emit_configure(const struct metric_set *set);

/* Register a counter group named name (an interface, or "total") with a schema of its own; its id. */
uint64_t emit_register_group(const char *name);

/* Emit one sample of the configured fields of rate for group (NaN fields: no value). */
void emit_sample(uint64_t group, const struct rate *rate);

/* Emit "no value" (NaN in every field) for group: its counters could not be read honestly this tick. */
void emit_no_value(uint64_t group);

/* Register a group that carries rx and tx alone whatever -m says (an RDMA port: issue 18), with
 * release 0.1's schema and MiB/s group semantics; its id. Sample it with emit_bytes_sample(). */
uint64_t emit_register_bytes_group(const char *name);

/* Emit rx and tx of rate (rate NULL: NaN, no value) for a group of emit_register_bytes_group(). */
void emit_bytes_sample(uint64_t group, const struct rate *rate);

#endif
