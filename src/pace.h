/* SPDX-License-Identifier: Apache-2.0 */
/* pace: deadline arithmetic for the sampling loop (pure, so tests can drive it with any clock). */
#ifndef KN_PACE_H
#define KN_PACE_H

#include <stdint.h>

/* The deadline after a tick that was due at deadline_ns and ran at now_ns. Normally
 * deadline_ns + interval_ns (absolute, so no drift); if that is already past, the missed
 * ticks are skipped and the schedule re-anchors at now_ns + interval_ns. *skipped gets
 * the number of ticks dropped (may be NULL). */
int64_t pace_next(int64_t deadline_ns, int64_t now_ns, int64_t interval_ns, uint64_t *skipped);

#endif
