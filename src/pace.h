/* SPDX-License-Identifier: Apache-2.0 */
/* pace: deadline arithmetic for the sampling loop (pure, so tests can drive it with any clock). */
#ifndef KN_PACE_H
#define KN_PACE_H

#include <stdint.h>

#define PACE_FIRST_WINDOW_NS INT64_C(1000000) /* the first rate covers at most 1 ms */

/* The deadline of the first tick after the baseline read at start_ns: one interval later, or
 * PACE_FIRST_WINDOW_NS if that is shorter, so that the first rate comes soon after the start
 * whatever the interval. *grid_ns gets the deadline pace_next() steps on from after that tick:
 * start_ns for an early first tick (the next one is due one interval after the start), else
 * the first tick's own deadline. */
int64_t pace_first(int64_t start_ns, int64_t interval_ns, int64_t *grid_ns);

/* The deadline after a tick that was due at deadline_ns and ran at now_ns. Normally
 * deadline_ns + interval_ns (absolute, so no drift); if that is already past, the missed
 * ticks are skipped and the schedule re-anchors at now_ns + interval_ns. *skipped gets
 * the number of ticks dropped (may be NULL). */
int64_t pace_next(int64_t deadline_ns, int64_t now_ns, int64_t interval_ns, uint64_t *skipped);

#endif
