#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# bench/memory.sh OUTPUT_PREFIX: what memory the plugin holds, next to bare floors that read the
# same counters (as root; see bench/README.md, "Memory"). For N veth interfaces, all selected, it
# runs the plugin (default source) and the floors `sleep`, `pread` and `dump` of bench/floor for
# KN_MEMORY_SECONDS (default 1) s and reads, just before SIGTERM, /proc/PID/smaps_rollup: the
# resident set (RSS: every page mapped, the shared pages of libc and ld.so included), the
# proportional set (PSS: shared pages divided among the processes mapping them), the private pages
# (USS: what the machine would get back if the process exited) and the anonymous pages; and, from
# wait4, the peak resident set (VmHWM). Writes OUTPUT_PREFIX.md and OUTPUT_PREFIX.csv.
#
# Environment: KN_PLUGIN, KN_BENCH_FLOOR, KN_BENCH_PROBE (built programs); KN_MEMORY_SIZES
# (default "2 256 1024", non-decreasing), KN_MEMORY_INTERVAL (µs, default 20000),
# KN_MEMORY_SECONDS.
set -eu

out=${1:?usage: memory.sh OUTPUT_PREFIX}
: "${KN_PLUGIN:?}" "${KN_BENCH_FLOOR:?}" "${KN_BENCH_PROBE:?}"
sizes=${KN_MEMORY_SIZES:-2 256 1024}
iv=${KN_MEMORY_INTERVAL:-20000}
secs=${KN_MEMORY_SECONDS:-1}
keys="maxrss_kb rss_kb pss_kb uss_kb anon_kb"

# One row: contender $1 run as the rest of the arguments; the keys of probe's line, or "-".
row() {
	local name=$1 line k v csv md
	shift
	line=$(ip netns exec "$ns" "$KN_BENCH_PROBE" $((secs * 1000)) "$@" 2>/dev/null) || line=""
	csv="$n,$name" md="| $n | $name |"
	for k in $keys; do
		v=$(printf '%s\n' "$line" | tr ' ' '\n' | sed -n "s/^$k=//p")
		case $v in '' | -*) v=- ;; esac
		csv+=",$v" md+=" $v |"
	done
	echo "$csv" >>"$out.csv"
	echo "$md" >>"$out.md"
	echo "$md"
}

# shellcheck source=bench/netns.sh
. "$(dirname "$0")/netns.sh"
bench_netns memory
echo "n,contender,${keys// /,}" >"$out.csv"
{
	echo "Run $(date -u +%Y-%m-%dT%H:%MZ) on $(nproc) CPUs, $(uname -r); every interface selected, $((1000000 / iv)) Hz, KiB."
	echo
	echo "| N | contender | peak RSS (VmHWM) | RSS | PSS | USS (private) | anonymous |"
	echo "|---|---|---|---|---|---|---|"
} >"$out.md"
for n in $sizes; do
	grow_to "$n"
	row plugin "$KN_PLUGIN" -d 'bv[0-9]+' -i "$iv"
	row floor-sleep "$KN_BENCH_FLOOR" sleep "$iv"
	row floor-pread "$KN_BENCH_FLOOR" pread "$iv" bv 0
	row floor-dump "$KN_BENCH_FLOOR" dump "$iv"
done
