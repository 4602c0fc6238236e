#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# bench/matrix.sh [OUTPUT_PREFIX]: the cost matrix of issue 16 (run by `make bench-matrix`, as root).
# For N veth interfaces in a network namespace of its own (peers in a second one; only loopback-range
# test traffic, none here), selecting 1 of them or all, at 50 Hz and 1 kHz: CPU µs per tick of the
# plugin with each source (auto, sysfs, netlink, procfs) and of the bare floors (sleep only, sysfs
# pread, netlink dump, netlink per-ifindex, /proc/net/dev; bench/floor), side by side, each the least
# of several runs, from /proc/PID/schedstat just before SIGTERM (start-up included). Prints, per
# cell, auto / best floor and auto − sleep. Writes OUTPUT_PREFIX.md and OUTPUT_PREFIX.csv.
#
# Environment: KN_PLUGIN, KN_BENCH_FLOOR, KN_BENCH_PROBE (built programs); KN_MATRIX_SIZES (default
# "2 16 256 1024"), KN_MATRIX_INTERVALS (default "20000 1000" µs), KN_MATRIX_SECONDS (default 2),
# KN_MATRIX_RUNS (default 3); KN_MATRIX_SOURCES (default "auto sysfs netlink procfs": the plugin's
# sources to measure, the others print "-"); KN_KVIKIO_PLUGIN: KvikIO's C++ plugin executable, for a
# column of its own (build it from rapidsai/kvikio cpp/nsys_plugins/nic; it is not vendored here).
# For auto it also keeps the peak RSS (KiB) and SIGTERM-to-exit time (µs) of its cheapest run.
set -eu

out=${1:-bench-matrix}
: "${KN_PLUGIN:?}" "${KN_BENCH_FLOOR:?}" "${KN_BENCH_PROBE:?}"
sizes=${KN_MATRIX_SIZES:-2 16 256 1024}
intervals=${KN_MATRIX_INTERVALS:-20000 1000}
secs=${KN_MATRIX_SECONDS:-2}
runs=${KN_MATRIX_RUNS:-3}
kvikio=${KN_KVIKIO_PLUGIN:-}
sources=" ${KN_MATRIX_SOURCES:-auto sysfs netlink procfs} "

# CPU µs per tick of a command in the namespace: the least of $runs runs of $secs s.
cost() {
	best=""
	for ((r = 0; r < runs; r++)); do
		line=$(ip netns exec "$ns" "$KN_BENCH_PROBE" $((secs * 1000)) "$@" 2>/dev/null) || continue
		ran=$(printf '%s\n' "$line" | tr ' ' '\n' | sed -n 's/^sched_ns=//p')
		if [ -z "$ran" ] || [ "$ran" -lt 0 ]; then continue; fi
		if [ -z "$best" ] || [ "$ran" -lt "$best" ]; then
			best=$ran
			printf '%s\n' "$line" | tr ' ' '\n' | sed -n 's/^maxrss_kb=//p' >"$tmp/rss"
			printf '%s\n' "$line" | tr ' ' '\n' | awk -F= '$1 == "term_ns" { t = $2 } $1 == "exit_ns" { e = $2 }
				END { printf "%.0f\n", (e - t) / 1000 }' >"$tmp/stop"
		fi
	done
	if [ -z "$best" ]; then echo "-"; return; fi
	awk -v ns="$best" -v e="$expected" 'BEGIN { printf "%.1f", ns / 1000 / e }'
}

# The least of the numeric arguments ("-" ignored).
least() {
	printf '%s\n' "$@" | awk '$1 != "-" && (m == "" || $1 + 0 < m + 0) { m = $1 } END { print (m == "" ? "-" : m) }'
}

# a / b with two decimals, or "-".
ratio() {
	awk -v a="$1" -v b="$2" 'BEGIN { if (a != "-" && b != "-" && b > 0) printf "%.2f", a / b; else print "-" }'
}

# One cell: N, selection (1 or all), interval.
cell() {
	n=$1 sel=$2 iv=$3
	expected=$((secs * 1000000 / iv))
	if [ "$sel" = 1 ]; then regex=bv0 k=1; else regex='bv[0-9]+' k=0; fi
	auto=- sysfs=- netlink=- procfs=- rss=- stop=-
	case $sources in *" auto "*)
		auto=$(cost "$KN_PLUGIN" -d "$regex" -i "$iv")
		rss=$(cat "$tmp/rss") stop=$(cat "$tmp/stop") ;;
	esac
	case $sources in *" sysfs "*) sysfs=$(cost "$KN_PLUGIN" --source=sysfs -d "$regex" -i "$iv") ;; esac
	case $sources in *" netlink "*) netlink=$(cost "$KN_PLUGIN" --source=netlink -d "$regex" -i "$iv") ;; esac
	case $sources in *" procfs "*) procfs=$(cost "$KN_PLUGIN" --source=procfs -d "$regex" -i "$iv") ;; esac
	kv=-
	[ -z "$kvikio" ] || kv=$(cost "$kvikio" -d "$regex" -i "$iv")
	f_sleep=$(cost "$KN_BENCH_FLOOR" sleep "$iv")
	f_pread=$(cost "$KN_BENCH_FLOOR" pread "$iv" bv "$k")
	f_dump=$(cost "$KN_BENCH_FLOOR" dump "$iv")
	f_get=$(cost "$KN_BENCH_FLOOR" get "$iv" bv "$k")
	f_proc=$(cost "$KN_BENCH_FLOOR" procfs "$iv")
	best=$(least "$f_pread" "$f_dump" "$f_get" "$f_proc")
	over=$(awk -v a="$auto" -v s="$f_sleep" 'BEGIN { if (a != "-" && s != "-") printf "%.1f", a - s; else print "-" }')
	x=$(ratio "$auto" "$best")
	kx=$(ratio "$auto" "$kv")
	echo "$n,$sel,$iv,$auto,$sysfs,$netlink,$procfs,$kv,$f_sleep,$f_pread,$f_dump,$f_get,$f_proc,$best,$x,$over,$kx,$rss,$stop" >>"$out.csv"
	line="| $n | $sel | $((1000000 / iv)) Hz | $auto | $sysfs | $netlink | $procfs | $kv | $f_sleep | $f_pread | $f_dump | $f_get | $f_proc | $x | $over | $kx | $rss | $stop |"
	echo "$line" >>"$out.md"
	echo "$line"
}

. "$(dirname "$0")/netns.sh"
bench_netns matrix
echo "n,selected,interval_us,auto,sysfs,netlink,procfs,kvikio,floor_sleep,floor_pread,floor_dump,floor_get,floor_procfs,best_floor,auto_over_best,auto_minus_sleep,auto_over_kvikio,auto_rss_kb,auto_stop_us" >"$out.csv"
{
	echo "Run $(date -u +%Y-%m-%dT%H:%MZ) on $(nproc) CPUs, $(uname -r), load $(cut -d' ' -f1-3 /proc/loadavg);"
	echo "CPU µs per tick from /proc/PID/schedstat over ${secs} s including start-up, least of $runs runs."
	echo
	echo "| N | selected | rate | ours auto | ours sysfs | ours netlink | ours procfs | KvikIO C++ | sleep only | sysfs pread | netlink dump | netlink per-ifindex | /proc/net/dev | auto / best floor | auto − sleep | auto / KvikIO | auto RSS KiB | auto SIGTERM→exit µs |"
	echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
} >"$out.md"
head -5 "$out.md"
for n in $sizes; do
	grow_to "$n"
	for sel in 1 all; do
		for iv in $intervals; do
			cell "$n" "$sel" "$iv"
		done
	done
done
echo >>"$out.md"
echo "Load after: $(cut -d' ' -f1-3 /proc/loadavg)." >>"$out.md"
