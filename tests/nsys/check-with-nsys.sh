#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# check-with-nsys.sh: install kvikio_nic into a real Nsight Systems, profile
# `sleep 2` with the plugin enabled, export each report to SQLite and check
# what nsys recorded.  Not part of `make check`: it needs an nsys installation
# and, for nsys older than 2026.2.1, write access to it.  See README.md here.
#
# Usage: check-with-nsys.sh [options]
#   --nsys PATH        the nsys executable            (env NSYS; else PATH; else /opt/nvidia/**/nsys)
#   --plugin-dir DIR   a staged plugin folder to copy (env KN_PLUGIN_DIR), e.g.
#                      DESTDIR/usr/local/lib/kvikio-nic/nsys-plugins/kvikio_nic
#   --build-dir DIR    a configured build tree to `make install` from
#                      (env KN_BUILDDIR; default: the current folder when it has a Makefile)
#   --device IF        interface for the -d spellings  (env KN_DEVICE; default: first up non-loopback, else lo)
#   --sysfs DIR        pass --sysfs=DIR to the plugin  (env KN_SYSFS; default: /sys, or a mirror of
#                      /proc/net/dev when /sys/class/net has no statistics, as under gVisor)
#   --save DIR         keep the reports, SQLite files and logs in DIR (env KN_SAVE)
#
# Usage: check-with-nsys.sh --check-export FILE.sqlite [--interval USEC] [--groups 'IF...']
#            [--vanished IF] [--appeared IF] [--kernel-bytes IF=BYTES] [--parquet DIR]
#   Only the sample checks, on a saved SQLite export (and its parquetdir export), without nsys:
#   counts and gaps against USEC (default 20000), total = sum of the groups at every tick, every
#   type named after its group, the groups (IF... plus total), no fake zero, and the optional
#   vanished/appeared/kernel-byte checks. make check runs it on small synthetic exports.
# Exit status: 0 all checks passed, 1 a check failed, 77 cannot run here (no nsys, ...).
set -euo pipefail
export LC_ALL=C

DOMAIN='KvikIO NIC'
SCHEMA='NIC bandwidth'
TYPE_DOUBLE=20          # NVTX_PAYLOAD_ENTRY_TYPE_DOUBLE
FLAG_COUNTER_GROUP=8    # NVTX_PAYLOAD_SCHEMA_FLAG_COUNTER_GROUP
SEARCH_DIRS_VERSION=2026.2.1
BURST_BYTES=200040000   # 3334 datagrams of 60000 bytes
FAKE_COUNTER_BASE=1000000000000000  # the fake tree's counters start here: 16 digits for 285 years

NSYS=${NSYS:-}
PLUGIN_SRC=${KN_PLUGIN_DIR:-}
BUILD_DIR=${KN_BUILDDIR:-}
DEVICE=${KN_DEVICE:-}
SYSFS=${KN_SYSFS:-}
SAVE=${KN_SAVE:-}
CHECK_EXPORT=''         # --check-export: only the sample checks, on a saved SQLite export
X_INTERVAL=20000 X_GROUPS='' X_VANISHED='' X_APPEARED='' X_KERNEL='' X_PARQUET=''
SQL_ERRORS=''
WORK=''
INSTALLED=''
BACKUP=''
MIRROR_PID=''
PASSED=0
FAILED=0
NOTCHECKED=0

# ---- reporting ---------------------------------------------------------------

# Print a line prefixed with '# '.
note() { printf '# %s\n' "$*"; }

# Record a passed check.
pass() { PASSED=$((PASSED + 1)); printf 'PASS: %s\n' "$*"; }

# Record a failed check.
fail() { FAILED=$((FAILED + 1)); printf 'FAIL: %s\n' "$*"; }

# Record something this nsys gives no way to check.
notcheckable() { NOTCHECKED=$((NOTCHECKED + 1)); printf 'NOT CHECKABLE: %s\n' "$*"; }

# pass or fail on the exit status of a command.
check() {
	local what=$1
	shift
	if "$@"; then pass "$what"; else fail "$what"; fi
}

# Give up: cannot run here (exit 77).
skip() { printf 'SKIP: %s\n' "$*"; exit 77; }

# Give up: a setup step failed (exit 1).
die() { printf 'ERROR: %s\n' "$*"; FAILED=$((FAILED + 1)); exit 1; }

# ---- options -------------------------------------------------------------------

# Parse the command line into the globals above.
parse_args() {
	while [ $# -gt 0 ]; do
		case $1 in
		--nsys) NSYS=$2; shift ;;
		--plugin-dir) PLUGIN_SRC=$2; shift ;;
		--build-dir) BUILD_DIR=$2; shift ;;
		--device) DEVICE=$2; shift ;;
		--sysfs) SYSFS=$2; shift ;;
		--save) SAVE=$2; shift ;;
		--check-export) CHECK_EXPORT=$2; shift ;;
		--interval) X_INTERVAL=$2; shift ;;
		--groups) X_GROUPS=$2; shift ;;
		--vanished) X_VANISHED=$2; shift ;;
		--appeared) X_APPEARED=$2; shift ;;
		--kernel-bytes) X_KERNEL=$2; shift ;;
		--parquet) X_PARQUET=$2; shift ;;
		-h|--help) sed -n '4,27p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
		*) die "unknown option '$1' (see --help)" ;;
		esac
		shift
	done
}

# ---- finding and installing into nsys ------------------------------------------

# Locate nsys: --nsys/NSYS, then PATH, then the newest under /opt/nvidia.
find_nsys() {
	if [ -z "$NSYS" ]; then
		NSYS=$(command -v nsys 2>/dev/null || true)
	fi
	if [ -z "$NSYS" ] && [ -d /opt/nvidia ]; then
		NSYS=$(find /opt/nvidia -name nsys -type f -perm -u+x 2>/dev/null | sort -V | tail -n 1)
	fi
	[ -n "$NSYS" ] || skip "no nsys found (set NSYS=/path/to/nsys)"
	[ -x "$NSYS" ] || skip "$NSYS is not executable"
}

# The release number (YYYY.N.N) that `nsys --version` prints.
nsys_version() {
	"$NSYS" --version 2>&1 | grep -oE '[0-9]{4}\.[0-9]+\.[0-9]+' | head -n 1
}

# Whether version $1 >= version $2.
version_ge() {
	[ "$(printf '%s\n%s\n' "$2" "$1" | sort -V | head -n 1)" = "$2" ]
}

# The plugins/ folder of this nsys: beside the binary (target-linux-x64/nsys, also the
# layout bundled with Nsight Compute) or ../target-linux-x64/plugins (bin/nsys wrapper).
nsys_plugins_dir() {
	local dir
	dir=$(dirname "$(readlink -f "$NSYS")")
	if [ -d "$dir/plugins" ] || [ "$(basename "$dir")" = target-linux-x64 ]; then
		printf '%s/plugins\n' "$dir"
	elif [ -d "$dir/../target-linux-x64" ]; then
		printf '%s/plugins\n' "$(readlink -f "$dir/../target-linux-x64")"
	else
		return 1
	fi
}

# Find the build tree to `make install` from, if no staged folder was given.
find_build_dir() {
	[ -n "$PLUGIN_SRC" ] && return 0
	if [ -z "$BUILD_DIR" ] && [ -f Makefile ] && grep -q '^plugin_PROGRAMS' Makefile; then
		BUILD_DIR=$PWD
	fi
	[ -n "$BUILD_DIR" ] || skip "no plugin to install: give --plugin-dir (KN_PLUGIN_DIR) or run from a build tree"
}

# Choose the folder to install into: nsys's own plugins/kvikio_nic, or a temp one
# reached through NSYS_PLUGIN_SEARCH_DIRS for nsys >= 2026.2.1.
choose_install_dir() {
	local version=$1 plugins
	if version_ge "$version" "$SEARCH_DIRS_VERSION"; then
		mkdir -p "$WORK/plugins"
		export NSYS_PLUGIN_SEARCH_DIRS="$WORK/plugins"
		INSTALLED="$WORK/plugins/kvikio_nic"
		note "nsys >= $SEARCH_DIRS_VERSION: NSYS_PLUGIN_SEARCH_DIRS=$NSYS_PLUGIN_SEARCH_DIRS"
		return 0
	fi
	plugins=$(nsys_plugins_dir) || skip "cannot tell where $NSYS keeps its plugins/"
	[ -w "$plugins" ] || skip "$plugins is not writable (nsys < $SEARCH_DIRS_VERSION loads plugins only from there)"
	INSTALLED="$plugins/kvikio_nic"
	if [ -e "$INSTALLED" ]; then
		# Outside plugins/: nsys loads every folder there, and two manifests
		# named kvikio_nic stop it with "Duplicate plugin name".
		BACKUP="$WORK/kvikio_nic.saved"
		mv "$INSTALLED" "$BACKUP"
		note "moved the existing $INSTALLED aside; it is put back at exit"
	fi
}

# Install the plugin folder: copy the staged one, or `make install` the plugin part.
install_plugin() {
	if [ -n "$PLUGIN_SRC" ]; then
		[ -f "$PLUGIN_SRC/nsys-plugin.yaml" ] || die "$PLUGIN_SRC has no nsys-plugin.yaml"
		mkdir -p "$INSTALLED"
		cp -p "$PLUGIN_SRC"/* "$INSTALLED"/
		note "copied $PLUGIN_SRC to $INSTALLED"
	else
		make -s -C "$BUILD_DIR" all >"$WORK/make.log" 2>&1 || { cat "$WORK/make.log"; die "make failed"; }
		make -s -C "$BUILD_DIR" install-pluginPROGRAMS install-pluginDATA plugindir="$INSTALLED" \
			>>"$WORK/make.log" 2>&1 || { cat "$WORK/make.log"; die "make install failed"; }
		note "make install plugindir=$INSTALLED (from $BUILD_DIR)"
	fi
}

# The plugin executable the installed manifest names.
plugin_exe() {
	local exe
	exe=$(sed -n 's/^ExecutablePath:[[:space:]]*//p' "$INSTALLED/nsys-plugin.yaml")
	case $exe in /*) printf '%s\n' "$exe" ;; *) printf '%s/%s\n' "$INSTALLED" "$exe" ;; esac
}

# Undo what was changed outside the work folder; stop the sysfs mirror.
cleanup() {
	if [ -n "$MIRROR_PID" ]; then kill "$MIRROR_PID" 2>/dev/null || true; fi
	case $INSTALLED in
	"$WORK"/*|'') ;;
	*) rm -rf "$INSTALLED" ;;
	esac
	if [ -n "$BACKUP" ]; then mv "$BACKUP" "$INSTALLED"; fi
	if [ -n "$SAVE" ] && [ -n "$WORK" ]; then
		mkdir -p "$SAVE"
		cp -rp "$WORK"/*.log "$WORK"/*.sqlite "$WORK"/*.nsys-rep "$WORK"/*.samples "$WORK"/*.pq "$SAVE"/ 2>/dev/null || true
	fi
	if [ -n "$WORK" ]; then rm -rf "$WORK"; fi
}

# ---- the counters the plugin reads -------------------------------------------------

# Whether <sysfs>/class/net/$1/statistics/rx_bytes holds a number.
has_counters() {
	grep -qE '^[0-9]+$' "$1/class/net/$2/statistics/rx_bytes" 2>/dev/null
}

# Write the /proc/net/dev counters into the mirror, in place (the plugin keeps its fds open).
mirror_update() {
	local name rx tx
	while read -r name rx _ _ _ _ _ _ _ tx _; do
		name=${name%:}
		[ -d "$SYSFS/class/net/$name/statistics" ] || continue
		printf '%s\n' "$rx" 1<>"$SYSFS/class/net/$name/statistics/rx_bytes"
		printf '%s\n' "$tx" 1<>"$SYSFS/class/net/$name/statistics/tx_bytes"
	done < <(sed -e '1,2d' -e 's/:/: /' /proc/net/dev)
}

# Build a sysfs-shaped copy of /proc/net/dev under $WORK/sys and keep it fresh (20 ms).
start_mirror() {
	local name dir
	SYSFS="$WORK/sys"
	while read -r name; do
		dir="$SYSFS/class/net/$name"
		mkdir -p "$dir/statistics"
		if [ "$name" = lo ]; then echo unknown; else echo up; fi >"$dir/operstate"
		if [ "$name" = lo ]; then echo 0x9; else echo 0x1003; fi >"$dir/flags"
		: >"$dir/statistics/rx_bytes"
		: >"$dir/statistics/tx_bytes"
	done < <(sed -e '1,2d' -e 's/:.*//' /proc/net/dev)
	mirror_update
	(while sleep 0.02; do mirror_update; done) &
	MIRROR_PID=$!
	note "/sys/class/net has no readable statistics here: the plugin reads a mirror of /proc/net/dev at $SYSFS"
}

# The interface names under <sysfs $1>/class/net, one per line.
iface_names() {
	local path
	for path in "$1"/class/net/*; do
		[ -e "$path" ] && printf '%s\n' "${path##*/}"
	done
	return 0
}

# Decide where the plugin reads counters and which interface the -d spellings name.
choose_counters() {
	local name found=''
	if [ -z "$SYSFS" ]; then
		SYSFS=/sys
		while read -r name; do
			if has_counters /sys "$name"; then found=$name; break; fi
		done < <(iface_names /sys)
		[ -n "$found" ] || start_mirror
	fi
	if [ -z "$DEVICE" ]; then
		while read -r name; do
			if [ "$name" != lo ] && grep -qx up "$SYSFS/class/net/$name/operstate" 2>/dev/null; then
				DEVICE=$name
				break
			fi
		done < <(iface_names "$SYSFS")
		DEVICE=${DEVICE:-lo}
	fi
	note "interfaces under $SYSFS/class/net: $(iface_names "$SYSFS" | tr '\n' ' ')"
	note "the -d spellings monitor: $DEVICE"
}

# The extra plugin argument that points it at the mirror, if any.
sysfs_arg() {
	if [ "$SYSFS" != /sys ]; then printf ',--sysfs=%s' "$SYSFS"; fi
}

# ---- SQLite ------------------------------------------------------------------------

# Run SQL $2 on database $1; rows as '|'-separated fields, NULL as an empty field (sqlite3, else
# python3). A failing query is never silent: it says so on stderr, leaves a mark that makes the
# whole run fail (main counts it) and returns 1. Callers read the whole output (no `| head`: a
# reader that stops early used to kill the python3 helper with BrokenPipeError, silently).
q() {
	local out rc=0
	if command -v sqlite3 >/dev/null 2>&1; then
		out=$(sqlite3 -batch -bail -noheader -separator '|' -cmd '.nullvalue ""' "$1" "$2" 2>&1) || rc=$?
	else
		out=$(python3 - "$1" "$2" 2>&1 <<'EOF_PY'
import sqlite3, sys
try:
    con = sqlite3.connect("file:" + sys.argv[1] + "?mode=ro", uri=True)
    rows = con.execute(sys.argv[2]).fetchall()
except Exception as e:  # reported by the shell side, with the query
    print("SQL error: %s" % e)
    sys.exit(3)
print("\n".join("|".join("" if v is None else repr(v) if isinstance(v, float) else str(v) for v in r) for r in rows))
EOF_PY
) || rc=$?
	fi
	if [ "$rc" -ne 0 ]; then
		printf 'ERROR: query failed on %s (rc=%s): %s\n  query: %s\n' "$1" "$rc" "$out" "$(printf '%s' "$2" | tr -s ' \t\n' ' ')" >&2
		[ -n "${SQL_ERRORS:-}" ] && echo x >>"$SQL_ERRORS"
		return 1
	fi
	[ -z "$out" ] || printf '%s\n' "$out"
}

# Whether the database can be queried at all here.
have_sql() {
	command -v sqlite3 >/dev/null 2>&1 || python3 -c 'import sqlite3' 2>/dev/null
}

# Whether table $2 exists in database $1.
has_table() {
	[ "$(q "$1" "SELECT count(*) FROM sqlite_master WHERE type='table' AND name='$2'")" -gt 0 ]
}

# Column names of table $2, one per line.
columns() {
	q "$1" "SELECT name FROM pragma_table_info('$2')"
}

# Whether table $2 has column $3.
has_column() {
	columns "$1" "$2" | grep -qx "$3"
}

# An SQL expression for a string column $3 of table $2 (aliased $4): the column, or the
# StringIds value of column $3Id, or the first of both that is not NULL.
text_expr() {
	local plain='NULL' byid='NULL'
	if has_column "$1" "$2" "$3"; then plain="$4.$3"; fi
	if has_column "$1" "$2" "${3}Id"; then byid="(SELECT value FROM StringIds WHERE id = $4.${3}Id)"; fi
	printf 'COALESCE(%s, %s)' "$plain" "$byid"
}

# Print the CREATE statement of each table whose name matches the LIKE pattern $2.
print_schemas() {
	q "$1" "SELECT sql FROM sqlite_master WHERE type='table' AND name LIKE '$2' ORDER BY name" |
		sed 's/^/#   /'
}

# ---- the checks on one report ---------------------------------------------------------

# The id of the KvikIO NIC domain in NVTX_EVENTS (empty when absent).
domain_id() {
	local db=$1 text
	has_table "$db" NVTX_EVENTS || return 0
	text=$(text_expr "$db" NVTX_EVENTS text e)
	q "$db" "SELECT DISTINCT e.domainId FROM NVTX_EVENTS e WHERE $text = '$DOMAIN' LIMIT 1"
}

# The payload schemas of the domain: one per group $3 (space-separated, total added), each named
# 'NIC bandwidth: <group>', 16 bytes, flagged COUNTER_GROUP, entries rx/tx doubles at offsets 0/8.
check_schema() {
	local db=$1 dom=$2 groups=$3 t sname ename want got
	for t in NVTX_PAYLOAD_SCHEMAS NVTX_PAYLOAD_SCHEMA_ENTRIES; do
		has_table "$db" "$t" || { fail "payload schema: no $t table"; return 0; }
	done
	sname=$(text_expr "$db" NVTX_PAYLOAD_SCHEMAS name s)
	ename=$(text_expr "$db" NVTX_PAYLOAD_SCHEMA_ENTRIES name e)
	# One line per schema: name|size|flag|entries (nsys 2025.3.1 exports an offset of 0 as NULL).
	got=$(q "$db" "SELECT $sname || '|' || s.payloadSize || '|' || ((s.flags & $FLAG_COUNTER_GROUP) != 0) || '|' ||
		(SELECT group_concat(x, ' ') FROM (SELECT $ename || ':' || e.type || ':' || COALESCE(e.offset, 0) AS x
			FROM NVTX_PAYLOAD_SCHEMA_ENTRIES e WHERE e.domainId = s.domainId AND e.schemaId = s.schemaId
			ORDER BY e.idx))
		FROM NVTX_PAYLOAD_SCHEMAS s WHERE s.domainId = $dom ORDER BY 1")
	printf '%s\n' "$got" | sed 's/^/#   schema (name|size|counter group|entries): /'
	want=$(for t in ${groups% } total; do
		printf '%s: %s|16|1|rx:%s:0 tx:%s:8\n' "$SCHEMA" "$t" "$TYPE_DOUBLE" "$TYPE_DOUBLE"; done | sort)
	check "one payload schema per group, '$SCHEMA: <group>', 16 bytes, COUNTER_GROUP, rx/tx doubles at 0/8" \
		[ "$got" = "$want" ]
}

# Every text in the database that contains $2, as table.column: text (first 200 chars);
# one query over every TEXT (or untyped) column of every table.
find_text() {
	local db=$1 needle=$2 table col sql=''
	while IFS='|' read -r table col; do
		sql="$sql${sql:+ UNION ALL }SELECT * FROM (SELECT '$table.$col: ' || replace(substr(\"$col\", 1, 200), char(10), ' ')
			FROM \"$table\" WHERE instr(\"$col\", '$needle') > 0 LIMIT 3)"
	done < <(q "$db" "SELECT m.name, p.name FROM sqlite_master m, pragma_table_info(m.name) p
		WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%' AND p.type IN ('TEXT', '')")
	[ -z "$sql" ] || q "$db" "$sql"
}

# The globalPid of the plugin process: from nsys's 'Launched "kvikio_nic" plugin' diagnostic,
# else from PROCESSES (names there are cut to 15 characters).
plugin_gpid() {
	local db=$1 gpid=''
	if has_table "$db" DIAGNOSTIC_EVENT; then
		gpid=$(q "$db" "SELECT globalPid FROM DIAGNOSTIC_EVENT
			WHERE text LIKE 'Launched \"kvikio_nic\" plugin as:%' LIMIT 1")
	fi
	if [ -z "$gpid" ] && has_table "$db" PROCESSES; then
		gpid=$(q "$db" "SELECT globalPid FROM PROCESSES WHERE name LIKE 'kvikio_nic%' LIMIT 1")
	fi
	printf '%s\n' "$gpid"
}

# Check that nsys started the plugin with the argv $2 (space-separated): its 'Launched' diagnostic.
check_launch() {
	local db=$1 want=$2 text exe args
	text=$(q "$db" "SELECT text FROM DIAGNOSTIC_EVENT WHERE text LIKE 'Launched \"kvikio_nic\" plugin as:%' LIMIT 1" 2>/dev/null || true)
	if [ -z "$text" ]; then
		notcheckable "argv as nsys passed it: no 'Launched \"kvikio_nic\" plugin' diagnostic in this report"
		return 0
	fi
	exe=$(basename "$(plugin_exe)")
	args=${text#*"/$exe"}
	args=${args%%, see *}
	args=$(printf '%s' "$args" | sed -e 's/^ *//' -e 's/ *$//')
	note "${text%%, see *}"
	check "nsys launched $exe with argv '$want' (got '$args')" [ "$args" = "$want" ]
}

# Check that the plugin's stderr line $2 reached the report: the plugin's stderr stream in
# ProcessStreams where nsys records it, else any text in the database (nsys's console log $3
# is only a hint).
check_stderr() {
	local db=$1 line=$2 log=$3 gpid found=''
	gpid=$(plugin_gpid "$db")
	if [ -n "$gpid" ] && has_table "$db" ProcessStreams; then
		found=$(q "$db" "SELECT f.value FROM ProcessStreams p
			JOIN StringIds f ON f.id = p.filenameId JOIN StringIds c ON c.id = p.contentId
			WHERE p.globalPid = $gpid AND f.value LIKE '%stderr%' AND instr(c.value, '$line') > 0")
		if [ -n "$found" ]; then
			note "found in ProcessStreams, the plugin's stream $found; all of it:"
			q "$db" "SELECT c.value FROM ProcessStreams p JOIN StringIds f ON f.id = p.filenameId
				JOIN StringIds c ON c.id = p.contentId WHERE p.globalPid = $gpid AND f.value LIKE '%stderr%'" |
				grep -v '^$' | sed 's/^/#     /'

			pass "plugin stderr '$line' recorded in the report (the plugin's stderr stream)"
			return 0
		fi
	fi
	found=$(find_text "$db" "$line")
	if [ -n "$found" ]; then
		printf '%s\n' "$found" | sed 's/^/#   found in /'
		pass "plugin stderr '$line' recorded in the report"
	elif grep -qF "$line" "$log"; then
		grep -F "$line" "$log" | head -n 2 | sed 's/^/#   nsys console: /'
		notcheckable "plugin stderr '$line' is not in the exported report; nsys printed it on its console"
	else
		fail "plugin stderr '$line' found neither in the report nor on nsys's console"
	fi
}

# Print the DIAGNOSTIC_EVENT rows; fail on one saying the plugin died of a signal, on an
# Error-severity (3) diagnostic of the plugin process, or on an exit code other than $2
# (nsys 2025.3.1 says "Plugin exited with code N." for N != 0 only).
check_diagnostics() {
	local db=$1 want_exit=$2 text rows bad gpid errors='' exits
	if ! has_table "$db" DIAGNOSTIC_EVENT; then
		notcheckable "diagnostics: no DIAGNOSTIC_EVENT table"
		return 0
	fi
	text=$(text_expr "$db" DIAGNOSTIC_EVENT text d)
	rows=$(q "$db" "SELECT d.severity || ' ' || replace($text, char(10), ' ') FROM DIAGNOSTIC_EVENT d ORDER BY d.timestamp")
	printf '%s\n' "$rows" | grep -v '^$' | cut -c1-160 | sed 's/^/#   diagnostic (severity text): /' || true
	bad=$(printf '%s\n' "$rows" | grep -iE 'kvikio|plugin' | grep -iE 'signal|sigterm|sigkill|killed|terminat|crash' || true)
	check "no diagnostic says the plugin was killed by a signal${bad:+: $bad}" [ -z "$bad" ]
	gpid=$(plugin_gpid "$db")
	if [ -n "$gpid" ]; then
		errors=$(q "$db" "SELECT $text FROM DIAGNOSTIC_EVENT d WHERE d.globalPid = $gpid AND d.severity = 3")
	fi
	check "no Error diagnostic for the plugin process${errors:+: $errors}" [ -z "$errors" ]
	exits=$(printf '%s\n' "$rows" | grep -oE 'Plugin exited with code -?[0-9]+' | paste -sd';' - || true)
	if [ "$want_exit" -eq 0 ]; then
		check "no diagnostic says the plugin exited non-zero${exits:+: $exits}" [ -z "$exits" ]
	else
		check "nsys reports the plugin's exit code $want_exit (got: ${exits:-none})" \
			[ "$exits" = "Plugin exited with code $want_exit" ]
	fi
}

# ---- the samples ----------------------------------------------------------------------

# Every sample of the KvikIO NIC counter types in SQLite export $1, one "group|timestamp|rx|tx"
# line each, by timestamp (rx/tx empty for NULL, i.e. no value). The group is the part of the
# type's name (its schema's name) after 'NIC bandwidth: '; a type named otherwise (one schema
# shared by every group, as before 0.2.0) prints as '?<typeId>'.
dump_sqlite_samples() {
	sample_field_sql() { printf "(SELECT CASE WHEN d.doubleVal IS NULL THEN '' ELSE printf('%%!.17g', d.doubleVal) END
		FROM GENERIC_EVENT_DATA d JOIN GENERIC_EVENT_TYPE_FIELDS f ON f.typeId = e.typeId AND f.fieldIdx = d.fieldIdx
		JOIN StringIds fn ON fn.id = f.fieldNameId WHERE d.genericEventId = e.genericEventId AND fn.value = '%s')" "$1"; }
	q "$1" "WITH types AS (SELECT t.typeId, n.value AS name FROM GENERIC_EVENT_TYPES t
			JOIN StringIds n ON n.id = t.nameId JOIN GENERIC_EVENT_SOURCES src ON src.sourceId = t.sourceId
			JOIN StringIds sn ON sn.id = src.nameId
			WHERE sn.value = 'GenericCounters' AND n.value LIKE '$SCHEMA%')
		SELECT CASE WHEN t.name LIKE '$SCHEMA: _%' THEN substr(t.name, length('$SCHEMA: ') + 1)
			ELSE '?' || t.typeId END, e.timestamp, $(sample_field_sql rx), $(sample_field_sql tx)
		FROM GENERIC_EVENTS e JOIN types t ON t.typeId = e.typeId ORDER BY e.timestamp, e.genericEventId"
}

# The same lines from a parquetdir export $1 (domain id $2): NVTX_COUNTER_GROUPS names the groups,
# NVTX_COUNTER_SAMPLES_<domain>_<group> holds their samples (NaN for no value). Needs pyarrow.
dump_parquet_samples() {
	python3 - "$1" "$2" <<'EOF_PY'
import math, os, sys
import pyarrow.parquet as pq
folder, domain = sys.argv[1], int(sys.argv[2])
def table(name):
    return pq.read_table(os.path.join(folder, name + ".parquet")).to_pylist()
strings = {}
if os.path.exists(os.path.join(folder, "StringIds.parquet")):
    strings = {r["id"]: r["value"] for r in table("StringIds")}
def text(v):
    return strings.get(v, str(v)) if isinstance(v, int) else v
def num(v):
    return "" if v is None or (isinstance(v, float) and math.isnan(v)) else repr(float(v))
lines = []
for g in table("NVTX_COUNTER_GROUPS"):
    if g.get("domainId") != domain:
        continue
    name = text(g.get("name"))
    gid = g.get("counterGroupId", g.get("groupId"))
    samples = text(g.get("samplesTable")) or "NVTX_COUNTER_SAMPLES_%d_%d" % (domain, gid)
    for r in table(samples):
        lines.append((r["timestamp"], name, num(r.get("rx")), num(r.get("tx"))))
for t, name, rx, tx in sorted(lines):
    print("%s|%d|%s|%s" % (name, t, rx, tx))
EOF_PY
}

# Check the sample lines in file $1 (from one of the dumps) against what the plugin promises; one
# pass/fail line per check. $2: interval in us; $3: the groups expected (space-separated, total
# added; empty: not checked); $4: a group that vanished mid-run (its counters always advanced
# while present, so a 0 would be a fake value); $5: a group that appeared mid-run; $6:
# GROUP=BYTES, the kernel's own rx byte delta for GROUP over the run.
check_sample_lines() {
	local file=$1 iv=$2 groups=$3 vanished=$4 appeared=$5 kernel=$6 want got verdict desc
	got=$(cut -d'|' -f1 "$file" | sort -u | tr '\n' ' ')
	note "groups in the samples: $got($(wc -l <"$file") samples)"
	check "${SAMPLE_TAG:+[$SAMPLE_TAG] }samples exist" [ -s "$file" ]
	[ -s "$file" ] || return 0
	check "${SAMPLE_TAG:+[$SAMPLE_TAG] }every counter type is named after its group ('$SCHEMA: <group>'; unnamed: $(grep -c '^?' "$file" || true) samples)" \
		[ "$(grep -c '^?' "$file" || true)" -eq 0 ]
	if [ -n "$groups" ]; then
		want=$(printf '%s\n' ${groups% } total | sort -u | tr '\n' ' ')
		check "${SAMPLE_TAG:+[$SAMPLE_TAG] }the groups are the interfaces plus total (want: $want got: $got)" [ "$got" = "$want" ]
	fi
	# The checker's verdicts go to a file first, so that a checker that fails is a failure too.
	if ! awk -F'|' -v iv="$((iv * 1000))" -v vanished="$vanished" -v appeared="$appeared" -v kernel="$kernel" '
		function abs(x) { return x < 0 ? -x : x }
		function say(ok, text) { print (ok ? "ok" : "bad") "|" text }
		function median(g,   i, j, k, m, a) {  # of gaps[g, 1..n[g]-1], by insertion sort
			m = n[g] - 1
			for (i = 1; i <= m; i++) { a[i] = gaps[g, i]; for (j = i; j > 1 && a[j - 1] > a[j]; j--) { k = a[j]; a[j] = a[j - 1]; a[j - 1] = k } }
			return m % 2 ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2
		}
		function subnormal(v) { return v != "" && v + 0 != 0 && abs(v + 0) < 2.2250738585072014e-308 }
		{
			g = $1; t = $2 + 0; valued = $3 != "" && $4 != ""
			if (!(g in n)) { names[++ng] = g; first[g] = t; baseline[g] = $3 == "" && $4 == "" }
			n[g]++
			if (n[g] > 1) { gaps[g, n[g] - 1] = t - last[g]; before_last[g] = last[g] }
			if (($3 == "") != ($4 == "")) half++
			if (subnormal($3) || subnormal($4)) { fake++; if (fake_at == "") fake_at = $0 }
			if (valued) {
				vals[g]++
				if ($3 + 0 < 0 || $4 + 0 < 0 || $3 + 0 > 1e300 || $4 + 0 > 1e300) insane++
				# (the counters of the fake tree step every 5 ms or so: a shorter window, as
				# the first rate 1 ms after the baseline, may rightly see no change)
				if ($3 + 0 == 0 && $4 + 0 == 0 && (n[g] == 1 || t - last[g] >= 1e7)) zeros[g]++
				if (n[g] > 1) bytes[g] += $3 * (t - last[g]) / 1e9 * 1048576; else firstrx[g] = $3
			} else nulls[g]++
			last[g] = t
			if (g != "total") { sum += valued ? $3 : 0; tsum += valued ? $4 : 0; any = any || valued; next }
			ticks++
			if (any && !(valued && abs($3 - sum) <= 1e-9 * abs(sum) + 1e-12 && abs($4 - tsum) <= 1e-9 * abs(tsum) + 1e-12)) { badsum++; if (badsum_at == "") badsum_at = $0 " (sum " sum "|" tsum ")" }
			if (!any && valued) { badsum++; if (badsum_at == "") badsum_at = $0 " (no group had a value)" }
			sum = tsum = 0; any = 0
		}
		END {
			for (i = 1; i <= ng; i++) {
				g = names[i]
				if (n[g] < 10) { say(0, g ": only " n[g] " samples, too few to judge"); continue }
				med = median(g); span = last[g] - first[g]
				# The last sample may be the final one on stop, covering a partial interval:
				# count up to the one before it; the first rate may come early (1 ms after
				# the baseline), a sample more than the interval makes.
				early = gaps[g, 1] < iv / 2
				expect = (before_last[g] - first[g]) / iv + 1 + early
				if (g != appeared) {
					say(baseline[g], g ": the first sample is the baseline mark, without a value")
					say(gaps[g, 1] <= 5e6 || gaps[g, 1] <= iv * 1.05, g ": the first rate " gaps[g, 1] / 1e6 " ms after the baseline (5 ms at most, or one interval)")
				}
				print "note|" g ": " n[g] " samples (" vals[g] + 0 " valued, " nulls[g] + 0 " no value) over " span / 1e9 " s, median gap " med / 1e6 " ms"
				say(abs(n[g] - 1 - expect) <= 0.02 * expect, g ": " n[g] - 1 " samples before the last over " (before_last[g] - first[g]) / 1e9 " s at " iv / 1e6 " ms: within 2 % of " sprintf("%.1f", expect))
				say(abs(med - iv) <= 0.05 * iv, g ": median gap " med / 1e6 " ms within 5 % of " iv / 1e6 " ms")
			}
			say(ticks > 0 && badsum == 0, "total is the sum of the groups at every tick (" ticks " ticks, " badsum + 0 " wrong" (badsum ? ": first " badsum_at : "") ")")
			say(half == 0, "no sample has one field without a value (" half + 0 ")")
			say(insane == 0, "no value is negative or infinite (" insane + 0 ")")
			say(fake == 0, "no subnormal value, the mark of nvtxCounterSampleNoValue in this export (" fake + 0 (fake ? ": first " fake_at : "") ")")
			if (vanished != "") {
				say(nulls[vanished] > 0, vanished " (vanished mid-run) has samples without a value: " nulls[vanished] + 0)
				say(zeros[vanished] == 0, vanished " (counters always advancing) has no 0 sample over 10 ms or more, i.e. no fake zero: " zeros[vanished] + 0)
			}
			if (appeared != "")
				say(n[appeared] > 0 && first[appeared] > first["total"] && vals[appeared] > 0,
				    appeared " (appeared mid-run) has its own named group, from " (first[appeared] - first["total"]) / 1e9 " s after the first tick, with " vals[appeared] + 0 " valued samples")
			if (kernel != "") {
				split(kernel, kv, "="); g = kv[1]
				if (n[g] > 1) got = bytes[g] + firstrx[g] * median(g) / 1e9 * 1048576
				say(n[g] > 1 && abs(got - kv[2]) <= 0.01 * kv[2], g ": sum of rx rate x interval = " sprintf("%.0f", got) " bytes, the kernel counted " kv[2] " (within 1 %)")
			}
		}' "$file" >"$file.verdicts"; then
		fail "the sample checker itself failed on $file"
		return 0
	fi
	while IFS='|' read -r verdict desc; do
		desc="${SAMPLE_TAG:+[$SAMPLE_TAG] }$desc"
		if [ "$verdict" = ok ]; then pass "$desc"; elif [ "$verdict" = bad ]; then fail "$desc"; else note "$desc"; fi
	done <"$file.verdicts"
}

# Check that two dumps $1 and $2 (SQLite and parquetdir) hold the same samples: same groups,
# timestamps and values (relative 1e-12; both empty for no value).
compare_dumps() {
	local a=$1 b=$2 tag=$3 bad
	bad=$(paste -d'|' <(sort -t'|' -k1,1 -k2,2n "$a") <(sort -t'|' -k1,1 -k2,2n "$b") | awk -F'|' '
		function abs(x) { return x < 0 ? -x : x }
		function same(x, y) { return (x == "" && y == "") || (x != "" && y != "" && abs(x - y) <= 1e-12 * abs(y)) }
		!($1 == $5 && $2 == $6 && same($3, $7) && same($4, $8)) { bad++; if (!first) first = $0 }
		END { if (bad) print bad " differ, first: " first }')
	check "[$tag] SQLite and parquetdir exports agree sample for sample ($(wc -l <"$a") and $(wc -l <"$b") samples${bad:+; $bad})" \
		[ -z "$bad" ] && [ "$(wc -l <"$a")" -eq "$(wc -l <"$b")" ]
}

# All sample checks on report $1 (tag $2), in both exports; remaining arguments as check_sample_lines.
check_samples() {
	local rep=$1 tag=$2 db=$3 dom=$4
	shift 4
	dump_sqlite_samples "$db" >"$WORK/$tag.sqlite.samples" || { fail "[$tag] cannot read the samples"; return 0; }
	note "[$tag] samples in the SQLite export (GENERIC_EVENT tables):"
	SAMPLE_TAG="$tag, SQLite" check_sample_lines "$WORK/$tag.sqlite.samples" "$@"
	if ! python3 -c 'import pyarrow' 2>/dev/null; then
		notcheckable "[$tag] parquetdir export: python3 with pyarrow is not available here to read it"
		return 0
	fi
	if [ -n "$rep" ]; then
		rm -rf "$WORK/$tag.pq"
		timeout 300 "$NSYS" export --type parquetdir --force-overwrite=true -o "$WORK/$tag.pq" "$rep" \
			>"$WORK/$tag.pqexport.log" 2>&1 || true
	fi
	[ -f "$WORK/$tag.pq/NVTX_COUNTER_GROUPS.parquet" ] ||
		{ fail "[$tag] nsys export --type parquetdir wrote no NVTX_COUNTER_GROUPS"; return 0; }
	dump_parquet_samples "$WORK/$tag.pq" "$dom" >"$WORK/$tag.pq.samples" ||
		{ fail "[$tag] cannot read the parquetdir samples"; return 0; }
	note "[$tag] samples in the parquetdir export (NVTX_COUNTER_GROUPS, NVTX_COUNTER_SAMPLES_*):"
	SAMPLE_TAG="$tag, parquetdir" check_sample_lines "$WORK/$tag.pq.samples" "$@"
	compare_dumps "$WORK/$tag.sqlite.samples" "$WORK/$tag.pq.samples" "$tag"
}

# ---- one profile -----------------------------------------------------------------------

# Profile the application $APP (default `sleep 2`) with --enable=$2, while $HOOK (a command, if
# set) runs beside it; export to SQLite; 0 when the .sqlite exists.
profile() {
	local tag=$1 enable=$2 rc=0 ok app=${APP:-sleep 2} hook_pid=''
	note "nsys profile --enable=$enable $app"
	if [ -n "${HOOK:-}" ]; then $HOOK & hook_pid=$!; fi
	eval "timeout 300 \"\$NSYS\" profile --trace=nvtx --sample=none --cpuctxsw=none --force-overwrite=true \
		-o \"\$WORK/\$tag\" \"--enable=\$enable\" $app" >"$WORK/$tag.profile.log" 2>&1 || rc=$?
	if [ -n "$hook_pid" ]; then wait "$hook_pid" || true; fi
	tr '\r' '\n' <"$WORK/$tag.profile.log" | grep -vE '^$|^\[[0-9]+/[0-9]+\]' | head -n 40 | sed 's/^/#   nsys: /' || true
	ok=0; [ "$rc" -eq 0 ] && [ -f "$WORK/$tag.nsys-rep" ] && ok=1
	check "[$tag] nsys profile exits 0 (rc=$rc) and writes $tag.nsys-rep" [ "$ok" -eq 1 ]
	[ -f "$WORK/$tag.nsys-rep" ] || return 1
	rc=0
	timeout 300 "$NSYS" export --type sqlite --force-overwrite=true -o "$WORK/$tag.sqlite" \
		"$WORK/$tag.nsys-rep" >"$WORK/$tag.export.log" 2>&1 || rc=$?
	ok=0; [ "$rc" -eq 0 ] && [ -f "$WORK/$tag.sqlite" ] && ok=1
	check "[$tag] nsys export --type sqlite (rc=$rc)" [ "$ok" -eq 1 ]
	if [ ! -f "$WORK/$tag.sqlite" ]; then sed 's/^/#   export: /' "$WORK/$tag.export.log"; return 1; fi
}

# The plugin's argv as nsys should pass it: the tokens after the plugin name, space-separated.
expected_argv() {
	local rest=${1#kvikio_nic}
	printf '%s\n' "${rest#,}" | tr ',' ' '
}

# All checks for a run that monitors the interfaces in $3 (space-separated, sorted).
check_monitoring_run() {
	local tag=$1 enable=$2 ifaces=$3 db dom n list
	profile "$tag" "$enable" || return 0
	db="$WORK/$tag.sqlite"
	check_launch "$db" "$(expected_argv "$enable")"
	dom=$(domain_id "$db")
	check "[$tag] NVTX domain '$DOMAIN' created (NVTX_EVENTS, domainId ${dom:-none})" [ -n "$dom" ]
	[ -n "$dom" ] && check_schema "$db" "$dom" "$ifaces"
	n=$(printf '%s\n' "${ifaces% }" | tr ' ' '\n' | wc -l)
	list=$(printf '%s\n' "${ifaces% }" | tr ' ' '\n' | head -n 4 | paste -sd, - | sed 's/,/, /g')
	[ "$n" -gt 4 ] && list="$list, +$((n - 4)) more"
	check_stderr "$db" "kvikio_nic: monitoring $n interface$([ "$n" -eq 1 ] || echo s) ($list) every 20000 us" \
		"$WORK/$tag.profile.log"
	check_diagnostics "$db" 0
	[ -n "$dom" ] && check_samples "$WORK/$tag.nsys-rep" "$tag" "$db" "$dom" 20000 "$ifaces" "" "" ""
	return 0
}

# A run on lo at 10 ms around a known loopback burst: the application reads the kernel's lo
# rx_bytes, sends BURST_BYTES of UDP to 127.0.0.1:9 (nothing listens; the bytes still cross lo),
# reads it again; the plugin's rx rate x interval, summed, must give the same bytes.
check_burst_run() {
	local tag=burst db dom kernel
	command -v python3 >/dev/null 2>&1 || { notcheckable "[burst] the loopback sender needs python3"; return 0; }
	cat >"$WORK/burst.sh" <<EOF_SH
sleep 1
a=\$(cat /sys/class/net/lo/statistics/rx_bytes)
python3 -c '
import socket
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
chunk = bytes(60000)
for i in range($BURST_BYTES // 60000):
    s.sendto(chunk, ("127.0.0.1", 9))
'
sleep 1
b=\$(cat /sys/class/net/lo/statistics/rx_bytes)
echo \$((b - a)) >"$WORK/burst.kernel"
EOF_SH
	APP="sh $WORK/burst.sh" profile "$tag" "kvikio_nic,-d,lo,-i,10000" || return 0
	db="$WORK/$tag.sqlite"
	kernel=$(cat "$WORK/burst.kernel" 2>/dev/null || true)
	check "[burst] the application read the kernel's lo byte delta (${kernel:-none})" [ -n "$kernel" ]
	dom=$(domain_id "$db")
	[ -n "$dom" ] && [ -n "$kernel" ] &&
		check_samples "$WORK/$tag.nsys-rep" "$tag" "$db" "$dom" 10000 "lo" "" "" "lo=$kernel"
	check_diagnostics "$db" 0
	return 0
}

# Once the application has started, keep the fake interfaces' counters of tree $1 growing with
# time (1 byte per us, 16 digits, so that an in-place write never leaves a short or empty file
# for the plugin to read, as truncating would); at 0.8 s add fb0,
# at 1.6 s make fa0 vanish (its counter files become empty, then it is removed); stop at 3.5 s.
hotplug_writer() {
	local root=$1/class/net start now us phase=0 i=0
	while [ ! -e "$WORK/hotplug.started" ] && [ "$i" -lt 6000 ]; do sleep 0.01; i=$((i + 1)); done
	start=${EPOCHREALTIME/./}
	while :; do
		now=${EPOCHREALTIME/./}; us=$((now - start)); now=$((FAKE_COUNTER_BASE + us))
		[ "$us" -lt 3500000 ] || break
		if [ "$phase" = 0 ] && [ "$us" -ge 800000 ]; then add_fake_iface "$1" fb0; phase=1; fi
		if [ "$phase" = 1 ] && [ "$us" -ge 1600000 ]; then
			: >"$root/fa0/statistics/rx_bytes"; : >"$root/fa0/statistics/tx_bytes"; phase=2
		fi
		if [ "$phase" = 2 ] && [ "$us" -ge 2200000 ]; then rm -rf "$root/fa0"; phase=3; fi
		[ "$phase" -ge 2 ] || { echo "$now" 1<>"$root/fa0/statistics/rx_bytes"; echo "$now" 1<>"$root/fa0/statistics/tx_bytes"; }
		[ "$phase" = 0 ] || { echo "$now" 1<>"$root/fb0/statistics/rx_bytes"; echo "$now" 1<>"$root/fb0/statistics/tx_bytes"; }
		sleep 0.005
	done
}

# Add an up interface $2 with counters at FAKE_COUNTER_BASE to the sysfs tree $1.
add_fake_iface() {
	local dir="$1/class/net/$2"
	mkdir -p "$dir/statistics"
	echo up >"$dir/operstate"
	echo 0x1003 >"$dir/flags"
	echo "$FAKE_COUNTER_BASE" >"$dir/statistics/rx_bytes"
	echo "$FAKE_COUNTER_BASE" >"$dir/statistics/tx_bytes"
}

# A run on a fake sysfs tree that changes under the plugin: fb0 appears mid-run and must show up
# under its own name; fa0 vanishes and must then write no value, never a fake zero.
check_hotplug_run() {
	local tag=hotplug db dom tree=$WORK/hp-sys
	[ -n "${EPOCHREALTIME:-}" ] || { notcheckable "[hotplug] the fake-tree writer needs bash >= 5 (EPOCHREALTIME)"; return 0; }
	add_fake_iface "$tree" fa0
	APP="bash -c 'touch $WORK/hotplug.started; sleep 3.5'" HOOK="hotplug_writer $tree" profile "$tag" "kvikio_nic,--sysfs=$tree,-d,f.*,-i,100000" ||
		return 0
	db="$WORK/$tag.sqlite"
	dom=$(domain_id "$db")
	[ -n "$dom" ] && check_samples "$WORK/$tag.nsys-rep" "$tag" "$db" "$dom" 100000 "fa0 fb0" fa0 fb0 ""
	check_diagnostics "$db" 0
	return 0
}

# A run where the default rule selects nothing: the plugin exits 1 at once, nsys goes on.
check_empty_run() {
	local tag=$1 enable=$2 db dom
	profile "$tag" "$enable" || return 0
	db="$WORK/$tag.sqlite"
	check_launch "$db" "$(expected_argv "$enable")"
	dom=$(domain_id "$db")
	check "[$tag] no '$DOMAIN' domain when nothing is selected (the plugin exits 1 first)" [ -z "$dom" ]
	check_stderr "$db" "kvikio_nic: no interface selected" "$WORK/$tag.profile.log"
	check_diagnostics "$db" 1
	return 0
}

# A sysfs tree with only a loopback interface, for the run where nothing is selected.
make_loopback_sysfs() {
	local dir="$WORK/lo-sys/class/net/lo"
	mkdir -p "$dir/statistics"
	echo unknown >"$dir/operstate"
	echo 0x9 >"$dir/flags"
	echo 0 >"$dir/statistics/rx_bytes"
	echo 0 >"$dir/statistics/tx_bytes"
	printf '%s\n' "$WORK/lo-sys"
}

# ---- main ---------------------------------------------------------------------------------

# Check that `nsys profile --enable=help` lists kvikio_nic with the manifest's Description.
check_help() {
	local help desc
	help=$("$NSYS" profile --enable=help 2>&1 || true)
	printf '%s\n' "$help" | grep -n -A3 kvikio_nic | sed 's/^/#   /' | head -n 12 || true
	# One manifest nsys cannot parse makes it refuse every plugin (the message names the file).
	check "nsys accepts the manifest (no 'Invalid plugin configuration')" \
		test "$(grep -cE 'Invalid plugin configuration|Parsing error' <<<"$help")" -eq 0
	check "nsys profile --enable=help lists kvikio_nic" \
		grep -qE '^[[:space:]]*kvikio_nic:' <<<"$help"
	desc=$(sed -n 's/^Description:[[:space:]]*//p' "$INSTALLED/nsys-plugin.yaml")
	# Compared without whitespace: nsys wraps long descriptions, maybe inside words.
	check "nsys profile --enable=help shows the manifest's Description" \
		grep -qF "$(tr -d ' \t\n' <<<"$desc")" <<<"$(tr -d ' \t\n' <<<"$help")"
}

# Run the four profiles: three spellings of -d/-i and the bare --enable.
run_profiles() {
	local extra selected
	extra=$(sysfs_arg)
	check_monitoring_run split "kvikio_nic,-d,$DEVICE,-i,20000$extra" "$DEVICE"
	check_monitoring_run joined "kvikio_nic,-d$DEVICE,-i20000$extra" "$DEVICE"
	check_monitoring_run long "kvikio_nic,--device=$DEVICE,--interval=20000$extra" "$DEVICE"
	selected=$("$(plugin_exe)" --list ${extra:+"${extra#,}"} 2>/dev/null | sort | tr '\n' ' ' || true)
	if [ -n "$selected" ]; then
		note "bare --enable=kvikio_nic: the default rule selects: $selected"
		check_monitoring_run bare "kvikio_nic$extra" "$selected"
	else
		note "bare --enable=kvikio_nic: the default rule selects nothing here (only loopback is up)"
		check_empty_run bare "kvikio_nic$extra"
	fi
	# Whatever this machine has: a plugin that fails at start (nothing selected, exit 1).
	note "a sysfs holding only lo: the default rule selects nothing, the plugin exits 1"
	check_empty_run empty "kvikio_nic,--sysfs=$(make_loopback_sysfs)"
	note "lo at 10 ms around a loopback burst of $BURST_BYTES bytes: the plugin's bytes against the kernel's"
	check_burst_run
	note "a fake sysfs tree that grows and shrinks: fb0 appears, fa0 vanishes"
	check_hotplug_run
}

# Print the totals, counting failed queries as failures; the exit status (0: all passed).
summary() {
	local errors=0
	[ -f "$SQL_ERRORS" ] && errors=$(wc -l <"$SQL_ERRORS")
	[ "$errors" -eq 0 ] || fail "$errors SQL queries failed (see ERROR lines above)"
	printf '%d passed, %d failed, %d not checkable\n' "$PASSED" "$FAILED" "$NOTCHECKED"
	[ "$FAILED" -eq 0 ]
}

# --check-export FILE: the sample checks on a saved SQLite export (and its parquetdir, with
# --parquet DIR), without nsys; the exit status.
check_export() {
	local dom=1
	[ -f "$CHECK_EXPORT" ] || die "no such export: $CHECK_EXPORT"
	have_sql || skip "neither sqlite3 nor python3 with its sqlite3 module is available"
	WORK=$(mktemp -d "${TMPDIR:-/tmp}/kn-nsys.XXXXXX")
	trap cleanup EXIT
	SQL_ERRORS=$WORK/sql-errors
	if has_table "$CHECK_EXPORT" NVTX_EVENTS; then dom=$(domain_id "$CHECK_EXPORT"); fi
	note "checking the samples of $CHECK_EXPORT (interval $X_INTERVAL us)"
	if [ -n "$X_PARQUET" ]; then
		rm -rf "$WORK/export.pq" && cp -r "$X_PARQUET" "$WORK/export.pq"
		check_samples "" export "$CHECK_EXPORT" "${dom:-1}" "$X_INTERVAL" "$X_GROUPS" "$X_VANISHED" "$X_APPEARED" "$X_KERNEL"
	else
		dump_sqlite_samples "$CHECK_EXPORT" >"$WORK/export.samples" || fail "cannot read the samples"
		check_sample_lines "$WORK/export.samples" "$X_INTERVAL" "$X_GROUPS" "$X_VANISHED" "$X_APPEARED" "$X_KERNEL"
	fi
	summary
}

main() {
	local version
	parse_args "$@"
	if [ -n "$CHECK_EXPORT" ]; then check_export; return; fi
	find_nsys
	version=$(nsys_version)
	[ -n "$version" ] || skip "cannot read the version of $NSYS"
	note "nsys: $NSYS"
	note "version: $("$NSYS" --version 2>&1 | head -n 1)"
	have_sql || skip "neither sqlite3 nor python3 with its sqlite3 module is available"
	find_build_dir
	WORK=$(mktemp -d "${TMPDIR:-/tmp}/kn-nsys.XXXXXX")
	trap cleanup EXIT
	SQL_ERRORS=$WORK/sql-errors
	choose_install_dir "$version"
	install_plugin
	choose_counters
	check_help
	run_profiles
	summary
}

# Run unless sourced (sourcing gives the functions, e.g. to re-check saved .sqlite files).
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
	main "$@"
fi
