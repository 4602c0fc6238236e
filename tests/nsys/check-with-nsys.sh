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
# Exit status: 0 all checks passed, 1 a check failed, 77 cannot run here (no nsys, ...).
set -euo pipefail
export LC_ALL=C

DOMAIN='KvikIO NIC'
SCHEMA='NIC bandwidth'
TYPE_DOUBLE=20          # NVTX_PAYLOAD_ENTRY_TYPE_DOUBLE
FLAG_COUNTER_GROUP=8    # NVTX_PAYLOAD_SCHEMA_FLAG_COUNTER_GROUP
SEARCH_DIRS_VERSION=2026.2.1

NSYS=${NSYS:-}
PLUGIN_SRC=${KN_PLUGIN_DIR:-}
BUILD_DIR=${KN_BUILDDIR:-}
DEVICE=${KN_DEVICE:-}
SYSFS=${KN_SYSFS:-}
SAVE=${KN_SAVE:-}
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
		-h|--help) sed -n '4,19p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
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
		BACKUP="$plugins/.kvikio_nic.saved.$$"
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
		cp -p "$WORK"/*.log "$WORK"/*.sqlite "$WORK"/*.nsys-rep "$SAVE"/ 2>/dev/null || true
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

# Run SQL $2 on database $1; rows as '|'-separated fields (sqlite3, else python3).
q() {
	if command -v sqlite3 >/dev/null 2>&1; then
		sqlite3 -batch -noheader -separator '|' "$1" "$2"
	else
		python3 - "$1" "$2" <<'EOF'
import sqlite3, sys
con = sqlite3.connect(sys.argv[1])
for row in con.execute(sys.argv[2]):
    print("|".join("" if v is None else str(v) for v in row))
EOF
	fi
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

# The payload schema rows: name|type|flags|payloadSize and entries idx|name|type|offset.
check_schema() {
	local db=$1 dom=$2 t sname ename want got
	for t in NVTX_PAYLOAD_SCHEMAS NVTX_PAYLOAD_SCHEMA_ENTRIES; do
		has_table "$db" "$t" || { fail "payload schema: no $t table"; return 0; }
	done
	sname=$(text_expr "$db" NVTX_PAYLOAD_SCHEMAS name s)
	q "$db" "SELECT * FROM NVTX_PAYLOAD_SCHEMAS s WHERE s.domainId = $dom" | sed 's/^/#   schema row: /'
	ename=$(text_expr "$db" NVTX_PAYLOAD_SCHEMA_ENTRIES name e)
	# nsys 2025.3.1 exports an offset of 0 as NULL.
	got=$(q "$db" "SELECT $ename, e.type, COALESCE(e.offset, 0) FROM NVTX_PAYLOAD_SCHEMA_ENTRIES e
		JOIN NVTX_PAYLOAD_SCHEMAS s ON s.domainId = e.domainId AND s.schemaId = e.schemaId
		WHERE e.domainId = $dom AND $sname = '$SCHEMA' ORDER BY e.idx" | tr '\n' ' ')
	want="rx|$TYPE_DOUBLE|0 tx|$TYPE_DOUBLE|8 "
	note "schema '$SCHEMA' entries (name|type|offset): $got"
	check "payload schema '$SCHEMA' has rx/tx doubles at offsets 0/8" [ "$got" = "$want" ]
	got=$(q "$db" "SELECT s.payloadSize, (s.flags & $FLAG_COUNTER_GROUP) != 0 FROM NVTX_PAYLOAD_SCHEMAS s
		WHERE s.domainId = $dom AND $sname = '$SCHEMA'" | head -n 1)
	check "payload schema '$SCHEMA' is 16 bytes and flagged COUNTER_GROUP (got size|flag: $got)" \
		[ "$got" = "16|1" ]
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

# The counter groups: one per interface in $3 (space-separated) plus total; sample values sane.
check_counters() {
	local db=$1 dom=$2 want=$3 name got gid table bad count col ok
	if ! has_table "$db" NVTX_COUNTER_GROUPS; then
		notcheckable "not checkable with this nsys: no counter sample tables (NVTX_COUNTER_GROUPS absent)"
		return 0
	fi
	print_schemas "$db" 'NVTX_COUNTER%'
	name=$(text_expr "$db" NVTX_COUNTER_GROUPS name g)
	got=$(q "$db" "SELECT $name FROM NVTX_COUNTER_GROUPS g WHERE g.domainId = $dom ORDER BY 1" | tr '\n' ' ')
	want=$(printf '%s\n' "${want% }" total | tr ' ' '\n' | sort | tr '\n' ' ')
	check "counter groups are one per interface plus total (want: $want got: $got)" [ "$got" = "$want" ]
	for gid in $(q "$db" "SELECT g.groupId FROM NVTX_COUNTER_GROUPS g WHERE g.domainId = $dom"); do
		table="NVTX_COUNTER_SAMPLES_${dom}_${gid}"
		has_table "$db" "$table" || { fail "no $table"; continue; }
		count=$(q "$db" "SELECT count(*) FROM $table")
		bad=0
		for col in $(q "$db" "SELECT name FROM pragma_table_info('$table') WHERE name IN ('rx', 'tx')"); do
			bad=$((bad + $(q "$db" "SELECT count(*) FROM $table WHERE $col IS NOT NULL AND NOT ($col >= 0 AND $col < 1e300)")))
		done
		ok=0; [ "$count" -gt 10 ] && [ "$bad" -eq 0 ] && ok=1
		check "$table: $count samples (> 10 for 2 s at 20 ms), none negative or infinite ($bad bad)" \
			[ "$ok" -eq 1 ]
	done
}

# ---- one profile -----------------------------------------------------------------------

# Profile `sleep 2` with --enable=$2, export to SQLite; 0 when the .sqlite exists.
profile() {
	local tag=$1 enable=$2 rc=0 ok
	note "nsys profile --enable=$enable sleep 2"
	timeout 300 "$NSYS" profile --trace=nvtx --sample=none --cpuctxsw=none --force-overwrite=true \
		-o "$WORK/$tag" "--enable=$enable" sleep 2 >"$WORK/$tag.profile.log" 2>&1 || rc=$?
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
	[ -n "$dom" ] && check_schema "$db" "$dom"
	n=$(printf '%s\n' "${ifaces% }" | tr ' ' '\n' | wc -l)
	list=$(printf '%s\n' "${ifaces% }" | tr ' ' '\n' | head -n 4 | paste -sd, - | sed 's/,/, /g')
	[ "$n" -gt 4 ] && list="$list, +$((n - 4)) more"
	check_stderr "$db" "kvikio_nic: monitoring $n interface$([ "$n" -eq 1 ] || echo s) ($list) every 20000 us" \
		"$WORK/$tag.profile.log"
	check_diagnostics "$db" 0
	[ -n "$dom" ] && check_counters "$db" "$dom" "$ifaces"
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
}

main() {
	local version
	parse_args "$@"
	find_nsys
	version=$(nsys_version)
	[ -n "$version" ] || skip "cannot read the version of $NSYS"
	note "nsys: $NSYS"
	note "version: $("$NSYS" --version 2>&1 | head -n 1)"
	have_sql || skip "neither sqlite3 nor python3 with its sqlite3 module is available"
	find_build_dir
	WORK=$(mktemp -d "${TMPDIR:-/tmp}/kn-nsys.XXXXXX")
	trap cleanup EXIT
	choose_install_dir "$version"
	install_plugin
	choose_counters
	check_help
	run_profiles
	printf '%d passed, %d failed, %d not checkable\n' "$PASSED" "$FAILED" "$NOTCHECKED"
	[ "$FAILED" -eq 0 ]
}

# Run unless sourced (sourcing gives the functions, e.g. to re-check saved .sqlite files).
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
	main "$@"
fi
