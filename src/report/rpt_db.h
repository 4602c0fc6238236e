/* SPDX-License-Identifier: Apache-2.0 */
/* rpt_db: read what kvikio_nic_report needs from an nsys SQLite export, read-only.
 * Tables (as nsys 2025.3.1 writes them): StringIds; GENERIC_EVENT_SOURCES ('GenericCounters');
 * GENERIC_EVENT_TYPES (one per counter group, named after its payload schema: 'NIC bandwidth:
 * <group>', or 'NIC bandwidth' shared by every group in older reports); GENERIC_EVENT_TYPE_FIELDS
 * ('rx', 'tx', then the extra fields of rpt_fields.h, any other name ignored); GENERIC_EVENTS
 * (timestamp, ns); GENERIC_EVENT_DATA (doubleVal, NULL for NaN);
 * NVTX_EVENTS (the 'KvikIO NIC' domain, the ranges); TARGET_INFO_SYSTEM_ENV ('Hostname'). */
#ifndef KN_RPT_DB_H
#define KN_RPT_DB_H

#include "rpt_fields.h"
#include "rpt_overlap.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RPT_ERR_MAX 512
#define RPT_DB_UNORDERED 1 /* the rows are not in the order the fast scan needs */

struct sqlite3;

/* An open export. */
struct rpt_db {
	struct sqlite3 *db;
	bool nvtx_textid; /* NVTX_EVENTS has a textId column (text through StringIds) */
};

/* One KvikIO NIC counter group of a report: the fields it has (always rx and tx). */
struct rpt_group_info {
	int64_t type_id;
	bool has[RPT_NFIELDS];
	int64_t field[RPT_NFIELDS]; /* fieldIdx of each field it has */
	unsigned nfields;           /* how many it has */
	unsigned char which[RPT_NFIELDS]; /* those fields (enum rpt_field), rx and tx first */
	char *name;
};

/* One sample's fields: ok[f] false where field f is absent or SQL NULL. */
struct rpt_sample {
	bool ok[RPT_NFIELDS];
	double v[RPT_NFIELDS];
};

/* The NVTX ranges of a report: ranges[i].name indexes names (sorted, distinct). */
struct rpt_range_set {
	struct rpt_range *ranges;
	size_t nranges;
	char **names;
	size_t nnames;
};

/* Open path read-only (one thread per connection); -1 with the reason in err. */
int rpt_db_open(struct rpt_db *db, const char *path, char err[RPT_ERR_MAX]);

/* Close the export. */
void rpt_db_close(struct rpt_db *db);

/* Whether NVTX_EVENTS creates the 'KvikIO NIC' domain (NvtxDomainCreate): 1 yes, 0 no, -1 (err). */
int rpt_db_has_domain(struct rpt_db *db, char err[RPT_ERR_MAX]);

/* The TARGET_INFO_SYSTEM_ENV Hostname ("" when absent), malloc'ed; -1 on error. */
int rpt_db_host(struct rpt_db *db, char **host, char err[RPT_ERR_MAX]);

/* The KvikIO NIC groups, by typeId (registration order); -1 on error. */
int rpt_db_groups(struct rpt_db *db, struct rpt_group_info **groups, size_t *n,
		  char err[RPT_ERR_MAX]);

/* Free what rpt_db_groups() returned. */
void rpt_groups_free(struct rpt_group_info *groups, size_t n);

/* The push/pop and start/end ranges whose name keep() accepts (ended ones only); -1 on error. */
int rpt_db_ranges(struct rpt_db *db, bool (*keep)(const char *name, void *ctx), void *ctx,
		  struct rpt_range_set *set, char err[RPT_ERR_MAX]);

/* Free a range set. */
void rpt_range_set_free(struct rpt_range_set *set);

/* Called per sample of group index g at time t (ns), with its fields. */
typedef void (*rpt_sample_fn)(void *ctx, size_t g, int64_t t, const struct rpt_sample *s);

/* Every sample, in time order per group. ordered false: a fast scan in storage order that
 * returns RPT_DB_UNORDERED (having called fn for some samples) when the storage order is not
 * time order; true: sorted by SQL. 0, or -1 with err. */
int rpt_db_samples(struct rpt_db *db, const struct rpt_group_info *groups, size_t n, bool ordered,
		   rpt_sample_fn fn, void *ctx, char err[RPT_ERR_MAX]);

/* The first and last sample time of the groups (0, 0 without samples); -1 on error. */
int rpt_db_span(struct rpt_db *db, const struct rpt_group_info *groups, size_t n, int64_t *lo,
		int64_t *hi, char err[RPT_ERR_MAX]);

#endif
