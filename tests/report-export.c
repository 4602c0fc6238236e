/* SPDX-License-Identifier: Apache-2.0 */
/* report-export: write synthetic nsys SQLite exports shaped like those of nsys 2025.3.1. */
#include "config.h"

#include "report-export.h"

#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static const char schema_sql[] =
	"CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT NOT NULL);"
	"CREATE TABLE ENUM_NSYS_EVENT_TYPE (id INTEGER PRIMARY KEY, name TEXT, description TEXT);"
	"INSERT INTO ENUM_NSYS_EVENT_TYPE VALUES (34, 'NvtxMark', ''), (59, 'NvtxPushPopRange', ''),"
	" (60, 'NvtxStartEndRange', ''), (75, 'NvtxDomainCreate', ''), (76, 'NvtxDomainDestroy', '');"
	"CREATE TABLE TARGET_INFO_SYSTEM_ENV (globalVid INTEGER, devStateName TEXT NOT NULL,"
	" name TEXT NOT NULL, nameEnum INTEGER NOT NULL, value TEXT NOT NULL);"
	"CREATE TABLE NVTX_EVENTS (start INTEGER NOT NULL, end INTEGER, eventType INTEGER NOT NULL,"
	" rangeId INTEGER, category INTEGER, color INTEGER, text TEXT, globalTid INTEGER,"
	" endGlobalTid INTEGER, textId INTEGER, domainId INTEGER, uint64Value INTEGER,"
	" int64Value INTEGER, doubleValue REAL, uint32Value INTEGER, int32Value INTEGER,"
	" floatValue REAL, jsonTextId INTEGER, jsonText TEXT, binaryData TEXT);"
	"CREATE TABLE GENERIC_EVENT_SOURCES (sourceId INTEGER PRIMARY KEY, data TEXT, nameId INTEGER);"
	"CREATE TABLE GENERIC_EVENT_TYPES (typeId INTEGER PRIMARY KEY, sourceId INTEGER, nameId INTEGER,"
	" data TEXT);"
	"CREATE TABLE GENERIC_EVENT_TYPE_FIELDS (typeId INTEGER, fieldIdx INTEGER, fieldNameId INTEGER,"
	" offset INTEGER, size INTEGER, type INTEGER);"
	"CREATE TABLE GENERIC_EVENTS (genericEventId INTEGER PRIMARY KEY, rawTimestamp INTEGER,"
	" timestamp INTEGER, typeId INTEGER, globalTid INTEGER, data TEXT);"
	"CREATE TABLE GENERIC_EVENT_DATA (genericEventId INTEGER, fieldIdx INTEGER, intVal INTEGER,"
	" uintVal INTEGER, floatVal REAL, doubleVal REAL);";

/* Exit with SQLite's message when rc is not what was expected. */
static void fx_check(struct fx *fx, int rc, int want)
{
	if (rc != want) {
		fprintf(stderr, "report-export: %s\n", sqlite3_errmsg(fx->db));
		exit(99);
	}
}

/* Run sql. */
static void fx_exec(struct fx *fx, const char *sql)
{
	fx_check(fx, sqlite3_exec(fx->db, sql, NULL, NULL, NULL), SQLITE_OK);
}

/* Add a string to StringIds; its id. */
static int64_t fx_string(struct fx *fx, const char *s)
{
	sqlite3_stmt *st;
	fx_check(fx, sqlite3_prepare_v2(fx->db, "INSERT INTO StringIds VALUES (?1, ?2)", -1, &st, NULL),
		 SQLITE_OK);
	int64_t id = fx->next_string++;
	sqlite3_bind_int64(st, 1, id);
	sqlite3_bind_text(st, 2, s, -1, SQLITE_TRANSIENT);
	fx_check(fx, sqlite3_step(st), SQLITE_DONE);
	sqlite3_finalize(st);
	return id;
}

void fx_open(struct fx *fx, const char *path, bool with_domain, const char *hostname)
{
	unlink(path);
	*fx = (struct fx){.next_string = 1, .next_type = 201, .next_event = 1};
	fx_check(fx, sqlite3_open(path, &fx->db), SQLITE_OK);
	fx_exec(fx, "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; BEGIN");
	fx_exec(fx, schema_sql);
	int64_t src = fx_string(fx, "GenericCounters");
	char sql[256];
	snprintf(sql, sizeof sql, "INSERT INTO GENERIC_EVENT_SOURCES VALUES (100, NULL, %lld)", (long long)src);
	fx_exec(fx, sql);
	if (hostname != NULL) {
		sqlite3_stmt *st;
		fx_check(fx, sqlite3_prepare_v2(fx->db, "INSERT INTO TARGET_INFO_SYSTEM_ENV VALUES "
						"(1, 'Default', 'Hostname', 1, ?1)", -1, &st, NULL), SQLITE_OK);
		sqlite3_bind_text(st, 1, hostname, -1, SQLITE_TRANSIENT);
		fx_check(fx, sqlite3_step(st), SQLITE_DONE);
		sqlite3_finalize(st);
	}
	fx_exec(fx, "INSERT INTO NVTX_EVENTS (start, eventType, text, domainId) VALUES "
		    "(10, 75, 'Other domain', 1)");
	if (with_domain)
		fx_exec(fx, "INSERT INTO NVTX_EVENTS (start, eventType, text, domainId) VALUES "
			    "(20, 75, 'KvikIO NIC', 2)");
	fx_check(fx, sqlite3_prepare_v2(fx->db, "INSERT INTO GENERIC_EVENTS VALUES (?1, ?2, ?2, ?3, 7, NULL)",
					-1, &fx->ins_event, NULL), SQLITE_OK);
	fx_check(fx, sqlite3_prepare_v2(fx->db, "INSERT INTO GENERIC_EVENT_DATA VALUES (?1, ?2, NULL, NULL, "
					"NULL, ?3)", -1, &fx->ins_data, NULL), SQLITE_OK);
	fx_check(fx, sqlite3_prepare_v2(fx->db, "INSERT INTO NVTX_EVENTS (start, end, eventType, text, "
					"textId, globalTid, domainId) VALUES (?1, ?2, ?3, ?4, ?5, 7, 0)",
					-1, &fx->ins_range, NULL), SQLITE_OK);
}

int64_t fx_type(struct fx *fx, const char *schema, const char *f0, const char *f1)
{
	const char *names[2] = {f0, f1};
	return fx_type_fields(fx, schema, names, 2);
}

int64_t fx_type_fields(struct fx *fx, const char *schema, const char *const *names, int n)
{
	int64_t type = fx->next_type++;
	int64_t name = fx_string(fx, schema);
	char sql[256];
	snprintf(sql, sizeof sql, "INSERT INTO GENERIC_EVENT_TYPES VALUES (%lld, 100, %lld, NULL)",
		 (long long)type, (long long)name);
	fx_exec(fx, sql);
	for (int k = 0; k < n; k++) {
		int64_t field = fx_string(fx, names[k]);
		char offset[16] = "NULL"; /* as before for the first field */
		if (k > 0)
			snprintf(offset, sizeof offset, "%d", 8 * k);
		snprintf(sql, sizeof sql, "INSERT INTO GENERIC_EVENT_TYPE_FIELDS VALUES (%lld, %d, %lld, %s, "
			 "8, 3)", (long long)type, k, (long long)field, offset);
		fx_exec(fx, sql);
	}
	return type;
}

/* One GENERIC_EVENT_DATA row (NaN: NULL). */
static void fx_field(struct fx *fx, int64_t id, int idx, double v)
{
	sqlite3_reset(fx->ins_data);
	sqlite3_bind_int64(fx->ins_data, 1, id);
	sqlite3_bind_int(fx->ins_data, 2, idx);
	if (isnan(v))
		sqlite3_bind_null(fx->ins_data, 3);
	else
		sqlite3_bind_double(fx->ins_data, 3, v);
	fx_check(fx, sqlite3_step(fx->ins_data), SQLITE_DONE);
}

void fx_sample(struct fx *fx, int64_t type, int64_t t, double rx, double tx)
{
	const double v[2] = {rx, tx};
	fx_sample_fields(fx, type, t, v, 2);
}

void fx_sample_fields(struct fx *fx, int64_t type, int64_t t, const double *v, int n)
{
	int64_t id = fx->next_event++;
	sqlite3_reset(fx->ins_event);
	sqlite3_bind_int64(fx->ins_event, 1, id);
	sqlite3_bind_int64(fx->ins_event, 2, t);
	sqlite3_bind_int64(fx->ins_event, 3, type);
	fx_check(fx, sqlite3_step(fx->ins_event), SQLITE_DONE);
	for (int k = 0; k < n; k++)
		fx_field(fx, id, k, v[k]);
}

void fx_range(struct fx *fx, const char *name, int64_t start, int64_t end, int event_type,
	      bool text_id)
{
	int64_t sid = text_id ? fx_string(fx, name) : 0;
	sqlite3_reset(fx->ins_range);
	sqlite3_bind_int64(fx->ins_range, 1, start);
	sqlite3_bind_int64(fx->ins_range, 2, end);
	sqlite3_bind_int(fx->ins_range, 3, event_type);
	if (text_id) {
		sqlite3_bind_null(fx->ins_range, 4);
		sqlite3_bind_int64(fx->ins_range, 5, sid);
	} else {
		sqlite3_bind_text(fx->ins_range, 4, name, -1, SQLITE_TRANSIENT);
		sqlite3_bind_null(fx->ins_range, 5);
	}
	fx_check(fx, sqlite3_step(fx->ins_range), SQLITE_DONE);
}

void fx_close(struct fx *fx)
{
	sqlite3_finalize(fx->ins_event);
	sqlite3_finalize(fx->ins_data);
	sqlite3_finalize(fx->ins_range);
	fx_exec(fx, "COMMIT");
	fx_check(fx, sqlite3_close(fx->db), SQLITE_OK);
}
