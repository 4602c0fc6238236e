#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# bench/compare.sh OUTPUT_PREFIX NAME=PLUGIN...: two or more builds of the plugin (say, before and
# after a change) side by side with the bare floors, in the cells of the cost matrix that a change
# is meant to move (as root; see bench/README.md, "Before and after"). Unlike matrix.sh, the runs
# are interleaved: each round runs every contender once, in an order that rotates from one round
# to the next, so that a machine that grows busier or quieter during the call favours none of them.
# Each figure is the least over the rounds of the CPU µs per tick, from /proc/PID/schedstat just
# before SIGTERM (start-up included); the best floor is the cheapest of matrix.sh's reading floors
# (sysfs pread, netlink dump, per-ifindex requests, /proc/net/dev). Each build also gets a paired
# ratio: the median over the rounds of its run over that round's run of the best floor's column.
# Writes OUTPUT_PREFIX.md and OUTPUT_PREFIX.csv.
#
# Environment: KN_BENCH_FLOOR, KN_BENCH_PROBE (built programs); KN_COMPARE_CELLS (default
# "2:all:20000 2:1:1000 16:all:20000 256:all:20000 256:all:1000": N veth interfaces, 1 or all of
# them selected, interval µs; sizes in increasing order), KN_COMPARE_RUNS (rounds, default 5),
# KN_COMPARE_SECONDS (default 2), KN_COMPARE_SIGWAIT (1: also the sleep and pread floors paced by
# sigtimedwait as the plugin is, KN_FLOOR_PACE=sigwait; shown, not counted in the best floor).
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
[ "${KN_COMPARE_SIGWAIT:-0}" = 0 ] || floors+=(sleep_sigwait pread_sigwait)

# CPU ns of one run of a command in the namespace, or nothing when it failed.
run_once() {
	ip netns exec "$ns" env KN_FLOOR_PACE="$pace" "$KN_BENCH_PROBE" $((secs * 1000)) "$@" 2>/dev/null |
		tr ' ' '\n' | sed -n 's/^sched_ns=//p'
}

# Contender i's command for the current cell (plugins first, then the floors).
contender() {
	local i=$1
	pace=
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
	sleep_sigwait) pace=sigwait cmd=("$KN_BENCH_FLOOR" sleep "$iv") ;;
	pread_sigwait) pace=sigwait cmd=("$KN_BENCH_FLOOR" pread "$iv" bv "$k") ;;
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
			[ -z "$ran" ] || printf '%03d %s\n' "$r" "$ran" >>"$tmp/c.$i"
		done
	done
	local least m=
	: >"$tmp/best"
	fbest=-1
	for ((i = 0; i < total; i++)); do
		if [ -s "$tmp/c.$i" ]; then
			least=$(sort -k2,2n "$tmp/c.$i" | awk 'NR == 1 { print $2 }')
			awk -v v="$least" -v e="$expected" 'BEGIN { printf "%.1f\n", v / 1000 / e }'
			# the best floor: the reading floors (after the plugins and sleep, before the extras)
			if [ "$i" -gt "${#plugins[@]}" ] && [ "$i" -lt $((${#plugins[@]} + 5)) ] &&
				{ [ -z "$m" ] || [ "$least" -lt "$m" ]; }; then
				m=$least fbest=$i
			fi
		else
			echo -
		fi >>"$tmp/best"
	done
	paired
}

# The median over the rounds of each plugin's CPU over, in the same round, that of the best
# floor's column $fbest (rounds where either run failed are left out), in $tmp/paired: one run
# against one run, so that the drift of a shared machine from round to round cancels.
paired() {
	local i
	: >"$tmp/paired"
	for ((i = 0; i < ${#plugins[@]}; i++)); do
		if [ "$fbest" -lt 0 ] || [ ! -s "$tmp/c.$i" ]; then
			echo - >>"$tmp/paired"
			continue
		fi
		join <(sort -k1,1 "$tmp/c.$fbest") <(sort -k1,1 "$tmp/c.$i") |
			awk '$2 > 0 { print $3 / $2 }' | sort -n |
			awk '{ v[NR] = $1 } END { if (NR == 0) print "-"; else if (NR % 2) printf "%.2f\n", v[(NR + 1) / 2]; else printf "%.2f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }' >>"$tmp/paired"
	done
}

# shellcheck source=bench/netns.sh
. "$(dirname "$0")/netns.sh"
bench_netns compare
header="n,selected,interval_us"
mdhead="| N | selected | rate |"
for name in "${names[@]}"; do header+=",$name"; mdhead+=" $name |"; done
for f in "${floors[@]:0:5}"; do header+=",floor_$f"; done
header+=",best_floor"
mdhead+=" sleep only | sysfs pread | netlink dump | netlink per-ifindex | /proc/net/dev | best floor |"
for f in "${floors[@]:5}"; do header+=",floor_$f"; mdhead+=" ${f%_sigwait} paced by sigtimedwait |"; done
for name in "${names[@]}"; do
	header+=",${name}_over_best,${name}_over_best_paired"
	mdhead+=" $name / best | $name / best, paired |"
done
echo "$header" >"$out.csv"
{
	echo "Run $(date -u +%Y-%m-%dT%H:%MZ) on $(nproc) CPUs, $(uname -r), load $(cut -d' ' -f1-3 /proc/loadavg);"
	echo "CPU µs per tick from /proc/PID/schedstat over ${secs} s including start-up, least of $runs interleaved rounds;"
	echo "\"paired\": the median over the rounds of the plugin's CPU over that of the best floor's column in the same round."
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
	mapfile -t pair <"$tmp/paired"
	np=${#plugins[@]}
	floor_best=-
	[ "$fbest" -lt 0 ] || floor_best=${best[$fbest]}
	csv="$n,$sel,$iv" md="| $n | $sel | $((1000000 / iv)) Hz |"
	for v in "${best[@]:0:$((np + 5))}"; do csv+=",$v" md+=" $v |"; done
	csv+=",$floor_best" md+=" $floor_best |"
	for v in "${best[@]:$((np + 5))}"; do csv+=",$v" md+=" $v |"; done
	for ((i = 0; i < np; i++)); do
		x=$(awk -v a="${best[$i]}" -v b="$floor_best" \
			'BEGIN { if (a != "-" && b != "-" && b > 0) printf "%.2f", a / b; else print "-" }')
		csv+=",$x,${pair[$i]}" md+=" $x | ${pair[$i]} |"
	done
	echo "$csv" >>"$out.csv"
	echo "$md" >>"$out.md"
	echo "$md"
done
echo >>"$out.md"
echo "Load after: $(cut -d' ' -f1-3 /proc/loadavg)." >>"$out.md"
