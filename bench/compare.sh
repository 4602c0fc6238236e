#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# bench/compare.sh OUTPUT_PREFIX NAME=PLUGIN...: two or more builds of the plugin (say, before and
# after a change) side by side with the bare floors, in the cells of the cost matrix that a change
# is meant to move (as root; see bench/README.md, "Before and after"). Unlike matrix.sh, the runs
# are interleaved: each round runs every contender once, in an order that rotates from one round
# to the next, so that a machine that grows busier or quieter during the call favours none of them.
# Each figure is the least over the rounds of the CPU µs per tick, from /proc/PID/schedstat just
# before SIGTERM (start-up included); the best floor is the cheapest of matrix.sh's reading floors
# (sysfs pread, netlink dump, per-ifindex requests, /proc/net/dev). Writes OUTPUT_PREFIX.md and
# OUTPUT_PREFIX.csv.
#
# Environment: KN_BENCH_FLOOR, KN_BENCH_PROBE (built programs); KN_COMPARE_CELLS (default
# "2:all:20000 2:1:1000 16:all:20000 256:all:20000 256:all:1000": N veth interfaces, 1 or all of
# them selected, interval µs; sizes in increasing order), KN_COMPARE_RUNS (rounds, default 5),
# KN_COMPARE_SECONDS (default 2).
set -eu

out=${1:?usage: compare.sh OUTPUT_PREFIX NAME=PLUGIN...}
shift
[ $# -ge 1 ] || { echo "compare.sh: name at least one NAME=PLUGIN" >&2; exit 2; }
: "${KN_BENCH_FLOOR:?}" "${KN_BENCH_PROBE:?}"
cells=${KN_COMPARE_CELLS:-2:all:20000 2:1:1000 16:all:20000 256:all:20000 256:all:1000}
runs=${KN_COMPARE_RUNS:-5}
secs=${KN_COMPARE_SECONDS:-2}
names=() plugins=()
for arg in "$@"; do
	case $arg in
	?*=?*) names+=("${arg%%=*}") plugins+=("${arg#*=}") ;;
	*) echo "compare.sh: not NAME=PLUGIN: $arg" >&2; exit 2 ;;
	esac
done
floors=(sleep pread dump get procfs)

# CPU ns of one run of a command in the namespace, or nothing when it failed.
run_once() {
	ip netns exec "$ns" "$KN_BENCH_PROBE" $((secs * 1000)) "$@" 2>/dev/null |
		tr ' ' '\n' | sed -n 's/^sched_ns=//p'
}

# Contender i's command for the current cell (plugins first, then the floors).
contender() {
	local i=$1
	if [ "$i" -lt ${#plugins[@]} ]; then
		cmd=("${plugins[$i]}" -d "$regex" -i "$iv")
		return
	fi
	case ${floors[$((i - ${#plugins[@]}))]} in
	sleep) cmd=("$KN_BENCH_FLOOR" sleep "$iv") ;;
	pread) cmd=("$KN_BENCH_FLOOR" pread "$iv" bv "$k") ;;
	dump) cmd=("$KN_BENCH_FLOOR" dump "$iv") ;;
	get) cmd=("$KN_BENCH_FLOOR" get "$iv" bv "$k") ;;
	procfs) cmd=("$KN_BENCH_FLOOR" procfs "$iv") ;;
	esac
}

# One cell: the least CPU of each contender over the rounds, as µs per tick, in $tmp/best.
cell() {
	local total=$((${#plugins[@]} + ${#floors[@]})) r j i
	expected=$((secs * 1000000 / iv))
	rm -f "$tmp"/c.*
	for ((r = 0; r < runs; r++)); do
		for ((j = 0; j < total; j++)); do
			i=$(((j + r) % total))
			contender "$i"
			ran=$(run_once "${cmd[@]}") || true
			[ -z "$ran" ] || echo "$ran" >>"$tmp/c.$i"
		done
	done
	: >"$tmp/best"
	for ((i = 0; i < total; i++)); do
		if [ -s "$tmp/c.$i" ]; then
			sort -n "$tmp/c.$i" | head -1 | awk -v e="$expected" '{ printf "%.1f\n", $1 / 1000 / e }'
		else
			echo -
		fi >>"$tmp/best"
	done
}

# shellcheck source=bench/netns.sh
. "$(dirname "$0")/netns.sh"
bench_netns compare
header="n,selected,interval_us"
mdhead="| N | selected | rate |"
for name in "${names[@]}"; do header+=",$name"; mdhead+=" $name |"; done
for f in "${floors[@]}"; do header+=",floor_$f"; done
mdhead+=" sleep only | sysfs pread | netlink dump | netlink per-ifindex | /proc/net/dev | best floor |"
for name in "${names[@]}"; do header+=",${name}_over_best"; mdhead+=" $name / best |"; done
echo "$header" >"$out.csv"
{
	echo "Run $(date -u +%Y-%m-%dT%H:%MZ) on $(nproc) CPUs, $(uname -r), load $(cut -d' ' -f1-3 /proc/loadavg);"
	echo "CPU µs per tick from /proc/PID/schedstat over ${secs} s including start-up, least of $runs interleaved rounds."
	echo
	echo "$mdhead"
	echo "${mdhead//[^|]/-}"
} >"$out.md"
for c in $cells; do
	IFS=: read -r n sel iv <<<"$c"
	if [ "$sel" = 1 ]; then regex=bv0 k=1; else regex='bv[0-9]+' k=0; fi
	grow_to "$n"
	cell
	mapfile -t best <"$tmp/best"
	np=${#plugins[@]}
	floor_best=$(printf '%s\n' "${best[@]:$((np + 1))}" |
		awk '$1 != "-" && (m == "" || $1 + 0 < m + 0) { m = $1 } END { print (m == "" ? "-" : m) }')
	csv="$n,$sel,$iv" md="| $n | $sel | $((1000000 / iv)) Hz |"
	for v in "${best[@]}"; do csv+=",$v" md+=" $v |"; done
	md+=" $floor_best |"
	for ((i = 0; i < np; i++)); do
		x=$(awk -v a="${best[$i]}" -v b="$floor_best" \
			'BEGIN { if (a != "-" && b != "-" && b > 0) printf "%.2f", a / b; else print "-" }')
		csv+=",$x" md+=" $x |"
	done
	echo "$csv" >>"$out.csv"
	echo "$md" >>"$out.md"
	echo "$md"
done
echo >>"$out.md"
echo "Load after: $(cut -d' ' -f1-3 /proc/loadavg)." >>"$out.md"
