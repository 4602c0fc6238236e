#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# report-trim.sh IN.sqlite OUT.sqlite [HOSTNAME]: trim a real nsys SQLite export to the tables and
# rows kvikio_nic_report reads, so that it can be committed as a test fixture: the generic-event
# tables, the NVTX ranges and domain creations, ENUM_NSYS_EVENT_TYPE, the StringIds those rows
# refer to, and TARGET_INFO_SYSTEM_ENV's Hostname alone, set to HOSTNAME (default fixture-node).
# Everything else (paths, the environment, process names, diagnostics) is left behind.
# Needs the sqlite3 program.
set -eu

[ $# -ge 2 ] || { echo "usage: report-trim.sh IN.sqlite OUT.sqlite [HOSTNAME]" >&2; exit 2; }
in=$1 out=$2 host=${3:-fixture-node}
tables="ENUM_NSYS_EVENT_TYPE TARGET_INFO_SYSTEM_ENV NVTX_EVENTS StringIds GENERIC_EVENT_SOURCES
GENERIC_EVENT_TYPES GENERIC_EVENT_TYPE_FIELDS GENERIC_EVENTS GENERIC_EVENT_DATA"
rm -f "$out"
for t in $tables; do
	sql=$(sqlite3 -readonly "$in" "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = '$t'")
	[ -n "$sql" ] || { echo "report-trim.sh: $in has no table $t" >&2; exit 1; }
	printf '%s;\n' "$sql" | sqlite3 "$out"
done
case $host in *"'"*) echo "report-trim.sh: no quote in HOSTNAME, please" >&2; exit 2 ;; esac
# The NVTX event types kept: push/pop and start/end ranges, domain creations.
sqlite3 "$out" <<EOF_SQL
ATTACH '$in' AS src;
BEGIN;
INSERT INTO ENUM_NSYS_EVENT_TYPE SELECT * FROM src.ENUM_NSYS_EVENT_TYPE WHERE name LIKE 'Nvtx%';
INSERT INTO TARGET_INFO_SYSTEM_ENV SELECT globalVid, devStateName, name, nameEnum, '$host'
	FROM src.TARGET_INFO_SYSTEM_ENV WHERE name = 'Hostname';
INSERT INTO NVTX_EVENTS SELECT * FROM src.NVTX_EVENTS WHERE eventType IN
	(SELECT id FROM src.ENUM_NSYS_EVENT_TYPE WHERE name IN ('NvtxPushPopRange', 'NvtxStartEndRange',
	 'NvtxDomainCreate'));
INSERT INTO GENERIC_EVENT_SOURCES SELECT * FROM src.GENERIC_EVENT_SOURCES;
INSERT INTO GENERIC_EVENT_TYPES SELECT * FROM src.GENERIC_EVENT_TYPES;
INSERT INTO GENERIC_EVENT_TYPE_FIELDS SELECT * FROM src.GENERIC_EVENT_TYPE_FIELDS;
INSERT INTO GENERIC_EVENTS SELECT * FROM src.GENERIC_EVENTS;
INSERT INTO GENERIC_EVENT_DATA SELECT * FROM src.GENERIC_EVENT_DATA;
INSERT INTO StringIds SELECT * FROM src.StringIds WHERE id IN (
	SELECT nameId FROM GENERIC_EVENT_SOURCES UNION SELECT nameId FROM GENERIC_EVENT_TYPES
	UNION SELECT fieldNameId FROM GENERIC_EVENT_TYPE_FIELDS UNION SELECT textId FROM NVTX_EVENTS);
COMMIT;
DETACH src;
VACUUM;
EOF_SQL
