#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# bench/report.sh: kvikio_nic_report on a large synthetic export shaped like nsys 2025.3.1's
# (not part of make check; `make bench-report`). Prints the wall time, CPU time and peak RSS of
# the summary and of --ranges; the target (issue 15): <= 10 s and <= 200 MB with --ranges.
#   KN_REPORT, KN_REPORT_GEN   the programs (set by make)
#   KN_BENCH_EXPORT            where the export is made and kept (default ./bench-report.sqlite)
#   KN_BENCH_SAMPLES (10000000) KN_BENCH_GROUPS (8) KN_BENCH_HZ (1000) KN_BENCH_RANGES (10000)
set -eu

: "${KN_REPORT:?KN_REPORT must name kvikio_nic_report}" "${KN_REPORT_GEN:?KN_REPORT_GEN must name tests/report-gen}"
export_file=${KN_BENCH_EXPORT:-bench-report.sqlite}
samples=${KN_BENCH_SAMPLES:-10000000}
groups=${KN_BENCH_GROUPS:-8}
hz=${KN_BENCH_HZ:-1000}
ranges=${KN_BENCH_RANGES:-10000}
params="$samples $groups $hz $ranges"

if [ ! -s "$export_file" ] || [ "$(cat "$export_file.params" 2>/dev/null)" != "$params" ]; then
	echo "bench: writing $export_file: $samples samples, $groups groups, $hz Hz, $ranges ranges"
	start=$(date +%s)
	"$KN_REPORT_GEN" "$export_file" bench "$samples" "$groups" "$hz" "$ranges"
	echo "$params" > "$export_file.params"
	echo "bench: written in $(($(date +%s) - start)) s, $(du -m "$export_file" | cut -f1) MiB"
fi

# measure LABEL ARGS...: one run of the report, best of three; prints wall, CPU and peak RSS.
measure() {
	label=$1
	shift
	best=""
	for _ in 1 2 3; do
		/usr/bin/time -f '%e %U %S %M' -o time.out "$KN_REPORT" "$@" > /dev/null
		line=$(cat time.out)
		wall=${line%% *}
		if [ -z "$best" ] || [ "$(echo "$wall < ${best%% *}" | bc)" = 1 ]; then best=$line; fi
	done
	rm -f time.out
	# shellcheck disable=SC2086 # four numbers, split on purpose
	set -- $best
	printf '%-28s wall %6.2f s  user %6.2f s  sys %5.2f s  peak RSS %6.1f MB\n' "$label" "$1" "$2" "$3" \
		"$(echo "$4 * 1024 / 1000000" | bc -l)"
}

echo "bench: kvikio_nic_report $("$KN_REPORT" --version | head -1 | sed 's/.* //'), $(nproc) CPUs, $(uname -m)"
measure "summary" --format=csv "$export_file"
measure "--ranges (all $ranges)" --format=csv --ranges "$export_file"
measure "--ranges --svg" --format=csv --ranges --svg=/dev/null "$export_file"
