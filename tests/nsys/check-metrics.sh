#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# check-metrics.sh: does a real nsys accept and record -m (issue 18)?  Profiles `sleep 2` with
# --enable=kvikio_nic,-d,lo,-m,packets,-m,util and, for comparison, the bare -d,lo; exports both
# to SQLite and prints, per counter group type, its fields (name, offset) and how many events it
# has, and the run's diagnostics (the "Deep copy fields" warning and any rejection).  Not part of
# make check: it needs nsys, with the plugin already installed where that nsys finds it (see
# README.md here: check-with-nsys.sh installs it, or NSYS_PLUGIN_SEARCH_DIRS for nsys >= 2026.2.1).
#
# Usage: check-metrics.sh [NSYS] [WORKDIR]   (NSYS defaults to nsys on PATH)
# Expected: the -m types have fields rx, tx, rx_packets, tx_packets, rx_util, tx_util at offsets
# 0, 8, ..., 40 and about 100 events each; the bare run's types rx, tx as before.
# Exit status: 0 both recorded as expected, 1 not, 77 no nsys.
set -euo pipefail
export LC_ALL=C
NSYS=${1:-$(command -v nsys || true)}
WORK=${2:-$(mktemp -d "${TMPDIR:-/tmp}/kn-nsys-metrics.XXXXXX")}
mkdir -p "$WORK"
if [ -z "$NSYS" ] || [ ! -x "$NSYS" ]; then
	echo "check-metrics.sh: no nsys" >&2
	exit 77
fi
command -v sqlite3 >/dev/null || { echo "check-metrics.sh: needs sqlite3" >&2; exit 77; }
status=0

# profile NAME ARGS: one report of `sleep 2` with --enable=kvikio_nic,ARGS, exported to SQLite.
profile() {
	"$NSYS" profile --trace=nvtx --sample=none --cpuctxsw=none --force-overwrite=true \
		--enable="kvikio_nic,$2" -o "$WORK/$1" sleep 2 >"$WORK/$1.log" 2>&1 || true
	"$NSYS" export --type sqlite --force-overwrite=true -o "$WORK/$1.sqlite" "$WORK/$1.nsys-rep" \
		>>"$WORK/$1.log" 2>&1 || true
}

# fields NAME: "type name: field@offset ... (N events)" per generic event type of the export.
fields() {
	sqlite3 "$WORK/$1.sqlite" "
		SELECT n.value || ': ' || (SELECT group_concat(x, ' ') FROM (SELECT s.value || '@' || f.offset AS x
				FROM GENERIC_EVENT_TYPE_FIELDS f JOIN StringIds s ON s.id = f.fieldNameId
				WHERE f.typeId = t.typeId ORDER BY f.fieldIdx)) ||
			' (' || (SELECT count(*) FROM GENERIC_EVENTS e WHERE e.typeId = t.typeId) || ' events)'
		FROM GENERIC_EVENT_TYPES t JOIN StringIds n ON n.id = t.nameId ORDER BY t.typeId" 2>&1
}

for run in "metrics -d,lo,-m,packets,-m,util" "bare -d,lo"; do
	name=${run%% *}
	profile "$name" "${run#* }"
	echo "== $name (--enable=kvikio_nic,${run#* })"
	fields "$name" | tee "$WORK/$name.fields"
	grep -iE 'deep copy|invalid|error|reject|unknown' "$WORK/$name.log" | sed 's/^/   nsys: /' || true
done
want="rx@0 tx@8 rx_packets@16 tx_packets@24 rx_util@32 tx_util@40"
grep -q "NIC bandwidth: lo: $want (" "$WORK/metrics.fields" || { echo "FAIL: -m fields not as expected"; status=1; }
grep -q "NIC bandwidth: lo: rx@0 tx@8 (" "$WORK/bare.fields" || { echo "FAIL: bare fields not as before"; status=1; }
echo "reports and logs in $WORK"
exit "$status"
