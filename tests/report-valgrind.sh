#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# report-valgrind.sh: kvikio_nic_report under valgrind memcheck: every format, --ranges, --sum,
# --svg, -j with bad inputs among good ones, a real report, the extra fields of kvikio_nic -m.
# Any error or leak fails the run.
# Not part of 'make check': 'make check-valgrind' runs it after tests/valgrind.sh.
# Env: KN_REPORT, KN_REPORT_GEN (tests/report-gen), KN_SRCDIR.
set -eu

: "${KN_REPORT:?}" "${KN_REPORT_GEN:?}" "${KN_SRCDIR:?}"
if ! command -v valgrind >/dev/null 2>&1; then
	echo "report-valgrind.sh: valgrind not found; skipped" >&2
	exit 77
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/kn-report-vg.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
"$KN_REPORT_GEN" "$tmp/good.sqlite" good
"$KN_REPORT_GEN" "$tmp/nodomain.sqlite" nodomain
"$KN_REPORT_GEN" "$tmp/big.sqlite" bench 20000 4 1000 50
"$KN_REPORT_GEN" "$tmp/extra.sqlite" extra
"$KN_REPORT_GEN" "$tmp/extramix.sqlite" extramix
gzip -dc "$KN_SRCDIR/tests/data/report/multi-hotplug.sqlite.gz" > "$tmp/real.sqlite"
printf 'not a database, long enough for a header of one, really it is not\n' > "$tmp/text.sqlite"
failures=0 runs=0

# vg WANT ARGS...: run the report under memcheck; a failure on any error, leak or other status.
vg() {
	want=$1
	shift
	runs=$((runs + 1))
	rc=0
	valgrind -q --error-exitcode=99 --leak-check=full --show-leak-kinds=all \
		--errors-for-leak-kinds=all --log-file="$tmp/vg.log" "$KN_REPORT" "$@" > /dev/null 2>&1 || rc=$?
	if [ "$rc" != "$want" ] || [ -s "$tmp/vg.log" ]; then
		echo "report-valgrind.sh: FAIL (exit $rc, want $want): $*" >&2
		cat "$tmp/vg.log" >&2
		failures=$((failures + 1))
	fi
}

vg 0 "$tmp/good.sqlite" "$tmp/real.sqlite"
vg 0 --ranges --format=json --svg="$tmp/p.svg" "$tmp/good.sqlite" "$tmp/real.sqlite" "$tmp/big.sqlite"
vg 0 --ranges='l.*' --sum --format=csv "$tmp/real.sqlite" "$tmp/real.sqlite"
vg 1 -j 3 --sum "$tmp/good.sqlite" "$tmp/text.sqlite" /nonexistent "$tmp/nodomain.sqlite" "$tmp/big.sqlite"
vg 0 --ranges --sum --format=csv --svg="$tmp/x.svg" "$tmp/extra.sqlite" "$tmp/extramix.sqlite" \
	"$tmp/good.sqlite"
vg 0 --sum "$tmp/extramix.sqlite" "$tmp/extra.sqlite"
vg 2 --ranges='(' "$tmp/good.sqlite"
vg 0 --help
echo "report-valgrind.sh: $runs runs, $failures failed"
[ "$failures" = 0 ]
