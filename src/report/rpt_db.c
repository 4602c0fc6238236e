/* SPDX-License-Identifier: Apache-2.0 */
/* rpt_db: read what kvikio_nic_report needs from an nsys SQLite export, read-only. */
#include "config.h"

#include "rpt_db.h"

#include <errno.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define DOMAIN_NAME "KvikIO NIC"
#define SCHEMA_SHARED "NIC bandwidth"
#define SCHEMA_PREFIX "NIC bandwidth: "
#define EVENT_PUSHPOP 59     /* ENUM_NSYS_EVENT_TYPE NvtxPushPopRange, when the table is absent */
#define EVENT_STARTEND 60    /* NvtxStartEndRange */
#define EVENT_DOMAIN_CREATE 75 /* NvtxDomainCreate */
#define NAME_UNSET UINT32_MAX

static int event_type(struct rpt_db *db, const char *name, int64_t fallback, int64_t *id,
		      char err[RPT_ERR_MAX]);

/* Put "what: sqlite's message" into err; returns -1. */
static int db_fail(struct rpt_db *db, const char *what, char err[RPT_ERR_MAX])
{
	snprintf(err, RPT_ERR_MAX, "%s: %s", what, sqlite3_errmsg(db->db));
	return -1;
}

/* Compile sql; -1 with the reason in err. */
static int db_prepare(struct rpt_db *db, const char *sql, sqlite3_stmt **stmt, char err[RPT_ERR_MAX])
{
	if (sqlite3_prepare_v2(db->db, sql, -1, stmt, NULL) != SQLITE_OK)
		return db_fail(db, "cannot read the export", err);
	return 0;
}

/* After the last sqlite3_step(): 0 when it ended well, else -1 with the reason. */
static int db_finish(struct rpt_db *db, sqlite3_stmt *stmt, int rc, char err[RPT_ERR_MAX])
{
	int failed = rc != SQLITE_DONE;
	if (failed)
		db_fail(db, "cannot read the export", err);
	sqlite3_finalize(stmt);
	return failed ? -1 : 0;
}

/* Step the bound stmt once and finalize it: 1 if it gave a row, 0 if none, -1 on error. */
static int db_step_exists(struct rpt_db *db, sqlite3_stmt *stmt, char err[RPT_ERR_MAX])
{
	int rc = sqlite3_step(stmt);
	if (rc == SQLITE_ROW) {
		sqlite3_finalize(stmt);
		return 1;
	}
	return db_finish(db, stmt, rc, err) == 0 ? 0 : -1;
}

/* Whether the query with one text parameter returns a row: 1, 0, or -1 on error. */
static int db_exists(struct rpt_db *db, const char *sql, const char *p1, const char *p2,
		     char err[RPT_ERR_MAX])
{
	sqlite3_stmt *stmt;
	if (db_prepare(db, sql, &stmt, err) != 0)
		return -1;
	if (sqlite3_bind_text(stmt, 1, p1, -1, SQLITE_STATIC) != SQLITE_OK ||
	    (p2 != NULL && sqlite3_bind_text(stmt, 2, p2, -1, SQLITE_STATIC) != SQLITE_OK)) {
		sqlite3_finalize(stmt);
		return db_fail(db, "cannot read the export", err);
	}
	return db_step_exists(db, stmt, err);
}

/* Whether table name exists: 1, 0, -1. */
static int db_has_table(struct rpt_db *db, const char *name, char err[RPT_ERR_MAX])
{
	return db_exists(db, "SELECT 1 FROM sqlite_master WHERE type IN ('table', 'view') AND name = ?1",
			 name, NULL, err);
}

int rpt_db_open(struct rpt_db *db, const char *path, char err[RPT_ERR_MAX])
{
	struct stat st;
	db->db = NULL;
	if (stat(path, &st) != 0) {
		snprintf(err, RPT_ERR_MAX, "cannot open: %s", strerror(errno));
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(err, RPT_ERR_MAX, "cannot open: not a regular file");
		return -1;
	}
	if (sqlite3_open_v2(path, &db->db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK) {
		db_fail(db, "cannot open", err);
		rpt_db_close(db);
		return -1;
	}
	/* Reading the schema proves it is SQLite; query_only guards against any write. */
	if (sqlite3_exec(db->db, "PRAGMA query_only = 1; SELECT count(*) FROM sqlite_master", NULL, NULL,
			 NULL) != SQLITE_OK) {
		db_fail(db, "not an SQLite export", err);
		rpt_db_close(db);
		return -1;
	}
	int textid = db_exists(db, "SELECT 1 FROM pragma_table_info(?1) WHERE name = ?2", "NVTX_EVENTS",
			       "textId", err);
	if (textid < 0) {
		rpt_db_close(db);
		return -1;
	}
	db->nvtx_textid = textid == 1;
	return 0;
}

void rpt_db_close(struct rpt_db *db)
{
	if (db->db != NULL)
		sqlite3_close(db->db);
	db->db = NULL;
}

/* The SQL expression of an NVTX_EVENTS row's text (alias e; StringIds alias s joined). */
static const char *nvtx_text(const struct rpt_db *db)
{
	return db->nvtx_textid ? "COALESCE(e.text, s.value)" : "e.text";
}

/* The FROM clause that goes with nvtx_text(). */
static const char *nvtx_from(const struct rpt_db *db)
{
	return db->nvtx_textid ? "NVTX_EVENTS e LEFT JOIN StringIds s ON s.id = e.textId"
			       : "NVTX_EVENTS e";
}

int rpt_db_has_domain(struct rpt_db *db, char err[RPT_ERR_MAX])
{
	int64_t create;
	int t = db_has_table(db, "NVTX_EVENTS", err);
	if (t <= 0)
		return t;
	if (event_type(db, "NvtxDomainCreate", EVENT_DOMAIN_CREATE, &create, err) != 0)
		return -1;
	char sql[512];
	snprintf(sql, sizeof sql, "SELECT 1 FROM %s WHERE e.eventType = ?1 AND %s = ?2 LIMIT 1",
		 nvtx_from(db), nvtx_text(db));
	sqlite3_stmt *stmt;
	if (db_prepare(db, sql, &stmt, err) != 0)
		return -1;
	if (sqlite3_bind_int64(stmt, 1, create) != SQLITE_OK ||
	    sqlite3_bind_text(stmt, 2, DOMAIN_NAME, -1, SQLITE_STATIC) != SQLITE_OK) {
		sqlite3_finalize(stmt);
		return db_fail(db, "cannot read the export", err);
	}
	return db_step_exists(db, stmt, err);
}

int rpt_db_host(struct rpt_db *db, char **host, char err[RPT_ERR_MAX])
{
	*host = NULL;
	int t = db_has_table(db, "TARGET_INFO_SYSTEM_ENV", err);
	if (t < 0)
		return -1;
	sqlite3_stmt *stmt = NULL;
	int rc = SQLITE_DONE;
	if (t == 1) {
		if (db_prepare(db, "SELECT value FROM TARGET_INFO_SYSTEM_ENV WHERE name = 'Hostname' LIMIT 1",
			       &stmt, err) != 0)
			return -1;
		rc = sqlite3_step(stmt);
		if (rc == SQLITE_ROW) {
			const unsigned char *v = sqlite3_column_text(stmt, 0);
			*host = strdup(v != NULL ? (const char *)v : "");
			rc = SQLITE_DONE; /* the first Hostname row is enough */
		}
	}
	if (*host == NULL)
		*host = strdup("");
	if (stmt != NULL && db_finish(db, stmt, rc, err) != 0) {
		free(*host);
		*host = NULL;
		return -1;
	}
	if (*host == NULL) {
		snprintf(err, RPT_ERR_MAX, "out of memory");
		return -1;
	}
	return 0;
}

/* List g's usable fields in g->which: rx, tx, then each extra field named once whose fieldIdx
 * no earlier field has (a doubtful extra field is left out, not the group). */
static void group_which(struct rpt_group_info *g, const int count[RPT_NFIELDS])
{
	g->nfields = 0;
	for (int f = 0; f < RPT_NFIELDS; f++) {
		bool ok = count[f] == 1;
		for (unsigned k = 0; ok && k < g->nfields; k++)
			ok = g->field[g->which[k]] != g->field[f];
		g->has[f] = ok;
		if (ok)
			g->which[g->nfields++] = (unsigned char)f;
	}
}

/* Find the fieldIdx of the fields of type t; 1 when it has rx and tx once each (other names
 * are ignored), 0 when not, -1. */
static int group_fields(struct rpt_db *db, sqlite3_stmt *fields, struct rpt_group_info *g,
			char err[RPT_ERR_MAX])
{
	int count[RPT_NFIELDS] = {0}, rc;
	sqlite3_reset(fields);
	if (sqlite3_bind_int64(fields, 1, g->type_id) != SQLITE_OK)
		return db_fail(db, "cannot read the export", err);
	while ((rc = sqlite3_step(fields)) == SQLITE_ROW) {
		const unsigned char *name = sqlite3_column_text(fields, 1);
		int f = name != NULL ? rpt_field_find((const char *)name) : -1;
		if (f >= 0) {
			g->field[f] = sqlite3_column_int64(fields, 0);
			count[f]++;
		}
	}
	if (rc != SQLITE_DONE)
		return db_fail(db, "cannot read the export", err);
	if (count[RPT_RX] != 1 || count[RPT_TX] != 1 || g->field[RPT_RX] == g->field[RPT_TX])
		return 0;
	group_which(g, count);
	return 1;
}

/* The group's name: what follows the schema prefix, or "#k" for the shared schema name. */
static char *group_name(const char *schema, size_t k)
{
	if (strncmp(schema, SCHEMA_PREFIX, strlen(SCHEMA_PREFIX)) == 0 && schema[strlen(SCHEMA_PREFIX)])
		return strdup(schema + strlen(SCHEMA_PREFIX));
	char buf[32];
	snprintf(buf, sizeof buf, "#%zu", k);
	return strdup(buf);
}

/* Add one candidate type to the list when it has rx and tx; -1 on error. */
static int groups_add(struct rpt_db *db, sqlite3_stmt *fields, int64_t type_id, const char *schema,
		      struct rpt_group_info **groups, size_t *n, size_t *cap, char err[RPT_ERR_MAX])
{
	struct rpt_group_info g = {.type_id = type_id};
	int ours = group_fields(db, fields, &g, err);
	if (ours <= 0)
		return ours;
	if (*n == *cap) {
		size_t ncap = *cap ? 2 * *cap : 8;
		struct rpt_group_info *p = realloc(*groups, ncap * sizeof *p);
		if (p == NULL)
			goto oom;
		*groups = p;
		*cap = ncap;
	}
	g.name = group_name(schema, *n + 1);
	if (g.name == NULL)
		goto oom;
	(*groups)[(*n)++] = g;
	return 0;
oom:
	snprintf(err, RPT_ERR_MAX, "out of memory");
	return -1;
}

/* Whether every table the samples live in exists: 1, 0, -1. */
static int has_generic_tables(struct rpt_db *db, char err[RPT_ERR_MAX])
{
	static const char *const tables[] = {"StringIds", "GENERIC_EVENT_SOURCES", "GENERIC_EVENT_TYPES",
		"GENERIC_EVENT_TYPE_FIELDS", "GENERIC_EVENTS", "GENERIC_EVENT_DATA"};
	for (size_t i = 0; i < sizeof tables / sizeof tables[0]; i++) {
		int t = db_has_table(db, tables[i], err);
		if (t != 1)
			return t;
	}
	return 1;
}

int rpt_db_groups(struct rpt_db *db, struct rpt_group_info **groups, size_t *n,
		  char err[RPT_ERR_MAX])
{
	*groups = NULL;
	*n = 0;
	int t = has_generic_tables(db, err);
	if (t <= 0)
		return t;
	sqlite3_stmt *types = NULL, *fields = NULL;
	if (db_prepare(db, "SELECT t.typeId, n.value FROM GENERIC_EVENT_TYPES t "
			   "JOIN StringIds n ON n.id = t.nameId "
			   "JOIN GENERIC_EVENT_SOURCES src ON src.sourceId = t.sourceId "
			   "JOIN StringIds sn ON sn.id = src.nameId "
			   "WHERE sn.value = 'GenericCounters' AND (n.value = ?1 OR "
			   "substr(n.value, 1, length(?2)) = ?2) ORDER BY t.typeId",
		       &types, err) != 0 ||
	    db_prepare(db, "SELECT f.fieldIdx, s.value FROM GENERIC_EVENT_TYPE_FIELDS f "
			   "LEFT JOIN StringIds s ON s.id = f.fieldNameId WHERE f.typeId = ?1",
		       &fields, err) != 0)
		goto fail;
	if (sqlite3_bind_text(types, 1, SCHEMA_SHARED, -1, SQLITE_STATIC) != SQLITE_OK ||
	    sqlite3_bind_text(types, 2, SCHEMA_PREFIX, -1, SQLITE_STATIC) != SQLITE_OK) {
		db_fail(db, "cannot read the export", err);
		goto fail;
	}
	size_t cap = 0;
	int rc;
	while ((rc = sqlite3_step(types)) == SQLITE_ROW) {
		const unsigned char *schema = sqlite3_column_text(types, 1);
		if (groups_add(db, fields, sqlite3_column_int64(types, 0), (const char *)schema, groups,
			       n, &cap, err) != 0)
			goto fail;
	}
	sqlite3_finalize(fields);
	fields = NULL;
	rc = db_finish(db, types, rc, err);
	types = NULL;
	if (rc == 0)
		return 0;
fail:
	sqlite3_finalize(types);
	sqlite3_finalize(fields);
	rpt_groups_free(*groups, *n);
	*groups = NULL;
	*n = 0;
	return -1;
}

void rpt_groups_free(struct rpt_group_info *groups, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(groups[i].name);
	free(groups);
}

/* The eventType of ENUM_NSYS_EVENT_TYPE name, or fallback when the table does not say; -1. */
static int event_type(struct rpt_db *db, const char *name, int64_t fallback, int64_t *id,
		      char err[RPT_ERR_MAX])
{
	*id = fallback;
	int t = db_has_table(db, "ENUM_NSYS_EVENT_TYPE", err);
	if (t <= 0)
		return t;
	sqlite3_stmt *stmt;
	if (db_prepare(db, "SELECT id FROM ENUM_NSYS_EVENT_TYPE WHERE name = ?1", &stmt, err) != 0)
		return -1;
	if (sqlite3_bind_text(stmt, 1, name, -1, SQLITE_STATIC) != SQLITE_OK) {
		sqlite3_finalize(stmt);
		return db_fail(db, "cannot read the export", err);
	}
	int rc = sqlite3_step(stmt);
	if (rc == SQLITE_ROW) {
		*id = sqlite3_column_int64(stmt, 0);
		rc = SQLITE_DONE;
	}
	return db_finish(db, stmt, rc, err);
}

/* A range while it is read, with its own copy of the name. */
struct raw_range {
	struct rpt_range r;
	char *name;
};

/* qsort order of raw ranges by name (bytes), then start. */
static int compare_raw(const void *a, const void *b)
{
	const struct raw_range *x = a, *y = b;
	int c = strcmp(x->name, y->name);
	return c != 0 ? c : (x->r.start > y->r.start) - (x->r.start < y->r.start);
}

/* Turn the raw ranges (sorted by name) into the set: distinct names, name indices. */
static int ranges_index(struct raw_range *raw, size_t n, struct rpt_range_set *set)
{
	set->ranges = malloc((n ? n : 1) * sizeof *set->ranges);
	set->names = malloc((n ? n : 1) * sizeof *set->names);
	if (set->ranges == NULL || set->names == NULL)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (set->nnames == 0 || strcmp(set->names[set->nnames - 1], raw[i].name) != 0)
			set->names[set->nnames++] = raw[i].name;
		else
			free(raw[i].name);
		raw[i].name = NULL;
		set->ranges[i] = raw[i].r;
		set->ranges[i].name = (uint32_t)(set->nnames - 1);
	}
	set->nranges = n;
	return 0;
}

/* Read the ranges of the prepared query into raw (grown as needed); -1 on error. */
static int ranges_read(struct rpt_db *db, sqlite3_stmt *stmt, bool (*keep)(const char *, void *),
		       void *ctx, struct raw_range **raw, size_t *n, char err[RPT_ERR_MAX])
{
	size_t cap = 0;
	int rc;
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		const unsigned char *name = sqlite3_column_text(stmt, 2);
		if (name == NULL || !keep((const char *)name, ctx))
			continue;
		if (*n == cap) {
			size_t ncap = cap ? 2 * cap : 64;
			struct raw_range *p = realloc(*raw, ncap * sizeof *p);
			if (p == NULL)
				goto oom;
			*raw = p;
			cap = ncap;
		}
		struct raw_range *r = &(*raw)[*n];
		r->r.start = sqlite3_column_int64(stmt, 0);
		r->r.end = sqlite3_column_int64(stmt, 1);
		r->r.name = 0;
		if ((r->name = strdup((const char *)name)) == NULL)
			goto oom;
		(*n)++;
	}
	return rc == SQLITE_DONE ? 0 : db_fail(db, "cannot read the NVTX ranges", err);
oom:
	snprintf(err, RPT_ERR_MAX, "out of memory");
	return -1;
}

int rpt_db_ranges(struct rpt_db *db, bool (*keep)(const char *name, void *ctx), void *ctx,
		  struct rpt_range_set *set, char err[RPT_ERR_MAX])
{
	*set = (struct rpt_range_set){0};
	int64_t pushpop, startend;
	int t = db_has_table(db, "NVTX_EVENTS", err);
	if (t <= 0)
		return t;
	if (event_type(db, "NvtxPushPopRange", EVENT_PUSHPOP, &pushpop, err) != 0 ||
	    event_type(db, "NvtxStartEndRange", EVENT_STARTEND, &startend, err) != 0)
		return -1;
	char sql[512];
	snprintf(sql, sizeof sql,
		 "SELECT e.start, e.end, %s FROM %s WHERE e.eventType IN (?1, ?2) "
		 "AND e.start IS NOT NULL AND e.end IS NOT NULL AND e.end >= e.start",
		 nvtx_text(db), nvtx_from(db));
	sqlite3_stmt *stmt;
	if (db_prepare(db, sql, &stmt, err) != 0)
		return -1;
	struct raw_range *raw = NULL;
	size_t n = 0;
	int rc = -1;
	if (sqlite3_bind_int64(stmt, 1, pushpop) != SQLITE_OK ||
	    sqlite3_bind_int64(stmt, 2, startend) != SQLITE_OK)
		db_fail(db, "cannot read the export", err);
	else if (ranges_read(db, stmt, keep, ctx, &raw, &n, err) == 0) {
		if (n > 1)
			qsort(raw, n, sizeof *raw, compare_raw);
		rc = ranges_index(raw, n, set);
		if (rc != 0)
			snprintf(err, RPT_ERR_MAX, "out of memory");
	}
	sqlite3_finalize(stmt);
	for (size_t i = 0; i < n; i++)
		free(raw[i].name);
	free(raw);
	if (rc != 0)
		rpt_range_set_free(set);
	return rc;
}

void rpt_range_set_free(struct rpt_range_set *set)
{
	for (size_t i = 0; i < set->nnames; i++)
		free(set->names[i]);
	free(set->names);
	free(set->ranges);
	*set = (struct rpt_range_set){0};
}

/* ---- the samples ---- */

/* The index of the group with typeId id (groups are sorted by it), or -1. */
static long group_index(const struct rpt_group_info *groups, size_t n, int64_t id)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (groups[mid].type_id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && groups[lo].type_id == id ? (long)lo : -1;
}

/* One sample being assembled from its GENERIC_EVENT_DATA rows. */
struct sample {
	int64_t id, t;
	long g;
	struct rpt_sample f;
};

/* Take one GENERIC_EVENT_DATA row (fieldIdx, doubleVal at columns col, col + 1) into s. */
static void sample_field(struct sample *s, const struct rpt_group_info *gi, sqlite3_stmt *stmt,
			 int col)
{
	if (s->g < 0 || sqlite3_column_type(stmt, col) == SQLITE_NULL ||
	    sqlite3_column_type(stmt, col + 1) == SQLITE_NULL)
		return;
	const struct rpt_group_info *g = &gi[s->g];
	int64_t idx = sqlite3_column_int64(stmt, col);
	for (unsigned k = 0; k < g->nfields; k++) {
		unsigned f = g->which[k];
		if (idx == g->field[f]) {
			s->f.ok[f] = true;
			s->f.v[f] = sqlite3_column_double(stmt, col + 1);
			return;
		}
	}
}

/* The range of typeIds to ask SQL for. */
static int bind_types(sqlite3_stmt *stmt, const struct rpt_group_info *groups, size_t n)
{
	int64_t lo = n ? groups[0].type_id : 0, hi = n ? groups[n - 1].type_id : -1;
	return sqlite3_bind_int64(stmt, 1, lo) == SQLITE_OK && sqlite3_bind_int64(stmt, 2, hi) == SQLITE_OK
		       ? 0
		       : -1;
}

/* Scan state shared by the two sample readers: per group, the last time seen. */
struct scan {
	struct rpt_db *db;
	const struct rpt_group_info *groups;
	size_t n;
	int64_t *last;
	char *err;
};

/* Whether sample time t of group g keeps the group in time order (and remember it). */
static bool scan_in_order(struct scan *sc, long g, int64_t t)
{
	if (sc->last[g] > t)
		return false;
	sc->last[g] = t;
	return true;
}

/* Fast path: GENERIC_EVENTS and GENERIC_EVENT_DATA in storage order, merged by genericEventId. */
static int samples_merged(struct scan *sc, rpt_sample_fn fn, void *ctx)
{
	sqlite3_stmt *ev = NULL, *data = NULL;
	int status = -1;
	if (db_prepare(sc->db, "SELECT genericEventId, typeId, timestamp FROM GENERIC_EVENTS", &ev,
		       sc->err) != 0 ||
	    db_prepare(sc->db, "SELECT genericEventId, fieldIdx, doubleVal FROM GENERIC_EVENT_DATA",
		       &data, sc->err) != 0)
		goto out;
	int rce = sqlite3_step(ev), rcd = sqlite3_step(data);
	int64_t last_ev = INT64_MIN, last_data = INT64_MIN;
	for (; rce == SQLITE_ROW; rce = sqlite3_step(ev)) {
		struct sample s = {.id = sqlite3_column_int64(ev, 0), .t = sqlite3_column_int64(ev, 2)};
		s.g = group_index(sc->groups, sc->n, sqlite3_column_int64(ev, 1));
		if (s.id <= last_ev)
			goto unordered;
		last_ev = s.id;
		for (; rcd == SQLITE_ROW; rcd = sqlite3_step(data)) {
			int64_t id = sqlite3_column_int64(data, 0);
			if (id < last_data)
				goto unordered;
			last_data = id;
			if (id > s.id)
				break;
			if (id == s.id)
				sample_field(&s, sc->groups, data, 1);
		}
		if (s.g < 0)
			continue;
		if (!scan_in_order(sc, s.g, s.t))
			goto unordered;
		fn(ctx, (size_t)s.g, s.t, &s.f);
	}
	if (rce != SQLITE_DONE || (rcd != SQLITE_DONE && rcd != SQLITE_ROW)) {
		db_fail(sc->db, "cannot read the samples", sc->err);
		goto out;
	}
	status = 0;
	goto out;
unordered:
	status = RPT_DB_UNORDERED;
out:
	sqlite3_finalize(ev);
	sqlite3_finalize(data);
	return status;
}

/* Slow path: one join sorted by time; rows of one event are consecutive. */
static int samples_sorted(struct scan *sc, rpt_sample_fn fn, void *ctx)
{
	sqlite3_stmt *stmt;
	if (db_prepare(sc->db, "SELECT e.genericEventId, e.typeId, e.timestamp, d.fieldIdx, d.doubleVal "
			       "FROM GENERIC_EVENTS e LEFT JOIN GENERIC_EVENT_DATA d "
			       "ON d.genericEventId = e.genericEventId WHERE e.typeId BETWEEN ?1 AND ?2 "
			       "ORDER BY e.timestamp, e.genericEventId",
		       &stmt, sc->err) != 0)
		return -1;
	if (bind_types(stmt, sc->groups, sc->n) != 0) {
		sqlite3_finalize(stmt);
		return db_fail(sc->db, "cannot read the samples", sc->err);
	}
	struct sample s = {.g = -1};
	bool pending = false;
	int rc;
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		int64_t id = sqlite3_column_int64(stmt, 0);
		if (!pending || id != s.id) {
			if (pending && s.g >= 0)
				fn(ctx, (size_t)s.g, s.t, &s.f);
			s = (struct sample){.id = id, .t = sqlite3_column_int64(stmt, 2)};
			s.g = group_index(sc->groups, sc->n, sqlite3_column_int64(stmt, 1));
			pending = true;
		}
		sample_field(&s, sc->groups, stmt, 3);
	}
	if (pending && s.g >= 0 && rc == SQLITE_DONE)
		fn(ctx, (size_t)s.g, s.t, &s.f);
	if (rc != SQLITE_DONE) {
		db_fail(sc->db, "cannot read the samples", sc->err);
		sqlite3_finalize(stmt);
		return -1;
	}
	sqlite3_finalize(stmt);
	return 0;
}

/* Start a scan of n groups; -1 when out of memory. */
static int scan_init(struct scan *sc, struct rpt_db *db, const struct rpt_group_info *groups,
		     size_t n, char err[RPT_ERR_MAX])
{
	*sc = (struct scan){db, groups, n, calloc(n ? n : 1, sizeof(int64_t)), err};
	if (sc->last == NULL) {
		snprintf(err, RPT_ERR_MAX, "out of memory");
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		sc->last[i] = INT64_MIN;
	return 0;
}

int rpt_db_samples(struct rpt_db *db, const struct rpt_group_info *groups, size_t n, bool ordered,
		   rpt_sample_fn fn, void *ctx, char err[RPT_ERR_MAX])
{
	struct scan sc;
	if (n == 0)
		return 0;
	if (scan_init(&sc, db, groups, n, err) != 0)
		return -1;
	int rc = ordered ? samples_sorted(&sc, fn, ctx) : samples_merged(&sc, fn, ctx);
	free(sc.last);
	return rc;
}

int rpt_db_span(struct rpt_db *db, const struct rpt_group_info *groups, size_t n, int64_t *lo,
		int64_t *hi, char err[RPT_ERR_MAX])
{
	*lo = *hi = 0;
	if (n == 0)
		return 0;
	sqlite3_stmt *stmt;
	if (db_prepare(db, "SELECT min(timestamp), max(timestamp) FROM GENERIC_EVENTS "
			   "WHERE typeId BETWEEN ?1 AND ?2", &stmt, err) != 0)
		return -1;
	if (bind_types(stmt, groups, n) != 0) {
		sqlite3_finalize(stmt);
		return db_fail(db, "cannot read the samples", err);
	}
	int rc = sqlite3_step(stmt);
	if (rc == SQLITE_ROW) {
		*lo = sqlite3_column_int64(stmt, 0);
		*hi = sqlite3_column_int64(stmt, 1);
		rc = SQLITE_DONE;
	}
	return db_finish(db, stmt, rc, err);
}
