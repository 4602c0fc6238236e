#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# bench/run.sh OUTPUT_PREFIX: measure the plugin's cost per counter source (run by `make bench`, as
# root). Builds a network namespace with N veth interfaces (their peers live in a second one, so the
# measured namespace holds exactly N + lo), and for each N and source reports CPU time per tick,
# ticks achieved vs expected, tick jitter, SIGTERM->exit latency, peak RSS and time to first sample,
# next to two bare floors: a netlink dump loop and the reference open/read/close loop.
# Writes OUTPUT_PREFIX.md (markdown table) and OUTPUT_PREFIX.csv. See bench/README.md.
#
# Environment: KN_PLUGIN, KN_BENCH_FLOOR, KN_BENCH_PROBE (built programs), KN_RECORDER (NVTX
# recorder .so; without it the timing columns are empty), KN_BENCH_SECONDS (default 5),
# KN_BENCH_SIZES (default "1 16 256 1024").
set -eu

out=${1:-bench-results}
: "${KN_PLUGIN:?}" "${KN_BENCH_FLOOR:?}" "${KN_BENCH_PROBE:?}"
recorder=${KN_RECORDER:-}
secs=${KN_BENCH_SECONDS:-5}
sizes=${KN_BENCH_SIZES:-1 16 256 1024}

# Run probe for $1 ms in the namespace on the rest of the arguments; prints probe's key=value line.
probe() {
	ms=$1
	shift
	ip netns exec "$ns" "$KN_BENCH_PROBE" "$ms" "$@" 2>/dev/null
}

# The value of key $1 in probe output $2.
field() {
	printf '%s\n' "$2" | tr ' ' '\n' | sed -n "s/^$1=//p"
}

# SIGTERM->exit latency in microseconds, the worst of 3 runs at -i 5000000 (the last -i wins).
term_latency() {
	worst=0
	for _ in 1 2 3; do
		line=$(probe 300 "$KN_PLUGIN" "$@" -i 5000000)
		lat=$((($(field exit_ns "$line") - $(field term_ns "$line")) / 1000))
		[ "$lat" -le "$worst" ] || worst=$lat
	done
	echo "$worst"
}

# From a recorder log ($1), interval ($2 us) and start time ($3 ns): "ticks p50 p99 max first ready".
# Jitter is period jitter: |time between consecutive samples of the first interface - interval|, in
# us; a gap of 1.5 intervals or more is a skipped tick (the sampler re-anchors after a stall) and
# counts in ticks, not in jitter. The baseline's mark (sample 0, no value), the first rate when it
# comes early (1 ms after the baseline, at intervals above 1 ms) and the final sample (on SIGTERM)
# are excluded. first (the first rate) and ready (groups registered; the baseline's mark follows at
# once) are in ms after the fork.
timing() {
	awk -F'\t' -v iv="$2" -v start="$3" '
	function val(key,   i) { for (i = 2; i <= NF; i++) if (index($i, key "=") == 1) return substr($i, length(key) + 2); return "" }
	$1 == "counter_register" { if (val("name") != "total" && first == "") first = val("counter"); ready = substr($2, 3) }
	($1 == "sample" || $1 == "sample_novalue") && val("counter") == first { t[n++] = substr($2, 3) }
	END {
		grid = iv > 1000 ? 2 : 1 # the first sample on the grid of intervals
		for (k = grid + 1; k < n - 1; k++) {
			d = (t[k] - t[k - 1]) / 1000 - iv
			if (d < iv / 2) print (d < 0 ? -d : d) > "/dev/stderr"
		}
		if (n >= grid + 2) printf "%d %.3f %.3f\n", n - grid - 1, (t[1] - start) / 1e6, (ready - start) / 1e6
		else print 0, "-", "-"
	}' "$1" 2>"$tmp/jitter" >"$tmp/timing"
	read -r ticks first ready <"$tmp/timing"
	sort -n "$tmp/jitter" >"$tmp/late.sorted"
	count=$(wc -l <"$tmp/late.sorted")
	if [ "$count" -eq 0 ]; then
		echo "$ticks - - - $first $ready"
		return
	fi
	pct() { sed -n "$(((count * $1 + 99) / 100))p" "$tmp/late.sorted"; }
	printf '%s %.0f %.0f %.0f %s %s\n' "$ticks" "$(pct 50)" "$(pct 99)" "$(pct 100)" "$first" "$ready"
}

# Measure one row: label N interval, then the command (plugin rows also get timing and latency).
row() {
	label=$1 n=$2 iv=$3
	shift 3
	line=$(probe $((secs * 1000)) "$@")
	cpu=$(($(field user_us "$line") + $(field sys_us "$line")))
	expected=$((secs * 1000000 / iv))
	rss=$(field maxrss_kb "$line")
	ticks=- p50=- p99=- max=- first=- ready=- term=-
	if [ "${label#floor-}" = "$label" ]; then
		if [ -n "$recorder" ] && [ -f "$recorder" ]; then
			rm -f "$tmp/log"
			line=$(NVTX_INJECTION64_PATH=$recorder KN_NVTX_LOG=$tmp/log probe $((secs * 1000)) "$@")
			read -r ticks p50 p99 max first ready < <(timing "$tmp/log" "$iv" "$(field start_ns "$line")")
		fi
		term=$(term_latency "$@")
	fi
	eval "floor_cpu=\${floor_${n}_${iv}:-}"
	[ "$label" != floor-netlink ] || eval "floor_${n}_${iv}=$cpu"
	ratio=$(awk -v a="$cpu" -v b="${floor_cpu:-0}" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }')
	per_tick=$(awk -v c="$cpu" -v e="$expected" 'BEGIN { printf "%.1f", c / e }')
	core=$(awk -v c="$cpu" -v s="$secs" 'BEGIN { printf "%.3f", c / (s * 1e4) }')
	echo "$n,$iv,$label,$cpu,$per_tick,$core,$ratio,$ticks,$expected,$p50,$p99,$max,$term,$rss,$first,$ready" |
		tee -a "$out.csv"
	echo "| $n | $iv | $label | $((cpu / 1000)) | $per_tick | $core | $ratio | $ticks/$expected | $p50 | $p99 | $max | $term | $rss | $first | $ready |" >>"$out.md"
}

# All rows for N interfaces at one interval.
rows_for() {
	n=$1 iv=$2
	row floor-netlink "$n" "$iv" "$KN_BENCH_FLOOR" netlink "$iv"
	row floor-reference "$n" "$iv" "$KN_BENCH_FLOOR" reference "$iv" bv
	row auto "$n" "$iv" "$KN_PLUGIN" -d 'bv[0-9]+' -i "$iv"
	row sysfs "$n" "$iv" "$KN_PLUGIN" --source=sysfs -d 'bv[0-9]+' -i "$iv"
}

. "$(dirname "$0")/netns.sh"
bench_netns bench
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
echo "n,interval_us,source,cpu_us,cpu_us_per_tick,core_pct,x_netlink_floor,ticks,expected,jitter_p50_us,jitter_p99_us,jitter_max_us,term_us,maxrss_kb,first_sample_ms,ready_ms" >"$out.csv"
{
	echo "Run $(date -u +%Y-%m-%dT%H:%MZ) on $(nproc) CPUs, $(uname -r); ${secs} s per measurement."
	echo
	echo "| N | interval µs | source | CPU ms | CPU µs/tick | % of a core | × netlink floor | ticks/expected | jitter p50 µs | p99 µs | max µs | SIGTERM→exit µs | RSS KiB | first sample ms | ready ms |"
	echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
} >"$out.md"
for n in $sizes; do
	grow_to "$n"
	[ "$n" != 1 ] || rows_for 1 1000
	rows_for "$n" 20000
done
echo >>"$out.md"
echo "Load average (1, 5, 15 min): $load_before before, $(cut -d' ' -f1-3 /proc/loadavg) after." >>"$out.md"
cat "$out.md"
