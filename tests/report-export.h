/* SPDX-License-Identifier: Apache-2.0 */
/* report-export: write synthetic nsys SQLite exports shaped like those of nsys 2025.3.1, for
 * the tests and the benchmark of kvikio_nic_report. Every function exits on an SQLite error. */
#ifndef KN_REPORT_EXPORT_H
#define KN_REPORT_EXPORT_H

#include <stdbool.h>
#include <stdint.h>

#define FX_PUSHPOP 59  /* ENUM_NSYS_EVENT_TYPE ids as nsys 2025.3.1 numbers them */
#define FX_STARTEND 60
#define FX_DOMAIN_CREATE 75

struct sqlite3;

/* An export being written. */
struct fx {
	struct sqlite3 *db;
	int64_t next_string, next_type, next_event;
	struct sqlite3_stmt *ins_event, *ins_data, *ins_range;
};

/* Create path (replacing it) with the tables; with_domain: the 'KvikIO NIC' domain is there. */
void fx_open(struct fx *fx, const char *path, bool with_domain, const char *hostname);

/* Register a counter type named schema (its fields f0, f1; "rx", "tx" for ours); its typeId. */
int64_t fx_type(struct fx *fx, const char *schema, const char *f0, const char *f1);

/* One sample of type at t ns; NaN fields are written as NULL. */
void fx_sample(struct fx *fx, int64_t type, int64_t t, double rx, double tx);

/* Register a counter type named schema with the n fields names (fieldIdx 0..n-1); its typeId. */
int64_t fx_type_fields(struct fx *fx, const char *schema, const char *const *names, int n);

/* One sample of type at t ns with n field values (fieldIdx 0..n-1); NaN is written as NULL. */
void fx_sample_fields(struct fx *fx, int64_t type, int64_t t, const double *v, int n);

/* One NVTX range (eventType FX_PUSHPOP or FX_STARTEND); text_id: name through StringIds. */
void fx_range(struct fx *fx, const char *name, int64_t start, int64_t end, int event_type,
	      bool text_id);

/* Commit and close. */
void fx_close(struct fx *fx);

#endif
