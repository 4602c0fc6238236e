#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# bench/calibrate.sh: measure the coefficients of auto's cost model (src/cost.c), as root. In a
# network namespace of its own with N veth interfaces (2 N + lo listed; no traffic), each floor of
# bench/floor runs K ticks flat out (USEC 1, KN_FLOOR_TICKS=K) and K = 0 ticks; the difference of
# their CPU time (user + system, from bench/probe) over K is the cost of one tick, printed as µs
# per tick, the least of 3. Subtract the sleep row to get what the reading costs.
#
# Environment: KN_BENCH_FLOOR, KN_BENCH_PROBE (built programs); KN_CALIBRATE_N (default "1 150"),
# KN_CALIBRATE_TICKS (default 2000).
set -eu
: "${KN_BENCH_FLOOR:?}" "${KN_BENCH_PROBE:?}"
sizes=${KN_CALIBRATE_N:-1 150}
ticks=${KN_CALIBRATE_TICKS:-2000}
ns=kn-calibrate-$$
tmp=$(mktemp -d)
trap 'ip netns del "$ns" 2>/dev/null || true; rm -rf "$tmp"' EXIT
[ "$(id -u)" = 0 ] || { echo "bench/calibrate.sh: needs root (it creates a network namespace)" >&2; exit 1; }

# CPU µs of one run of the floor (the rest of the arguments) for $1 ticks.
cpu() {
	k=$1
	shift
	line=$(KN_FLOOR_TICKS=$k ip netns exec "$ns" "$KN_BENCH_PROBE" 3000 "$KN_BENCH_FLOOR" "$@")
	u=$(printf '%s\n' "$line" | tr ' ' '\n' | sed -n 's/^user_us=//p')
	s=$(printf '%s\n' "$line" | tr ' ' '\n' | sed -n 's/^sys_us=//p')
	echo $((u + s))
}

ip netns add "$ns"
ip -n "$ns" link set lo up
have=0
for n in $sizes; do
	: >"$tmp/batch"
	for ((i = have; i < n; i++)); do echo "link add bv$i type veth peer name bw$i" >>"$tmp/batch"; done
	[ ! -s "$tmp/batch" ] || ip -n "$ns" -batch "$tmp/batch"
	have=$n
	echo "N=$n veth pairs ($((2 * n + 1)) interfaces listed):"
	for mode in "sleep 1" "pread 1 bv 1" "pread 1 bv 0" "dump 1" "get 1 bv 1" "get 1 bv 0" "procfs 1"; do
		best=""
		for _ in 1 2 3; do
			# shellcheck disable=SC2086 # mode is a word list
			d=$(($(cpu "$ticks" $mode) - $(cpu 0 $mode)))
			if [ -z "$best" ] || [ "$d" -lt "$best" ]; then best=$d; fi
		done
		awk -v m="$mode" -v d="$best" -v k="$ticks" 'BEGIN { printf "  %-14s %8.2f us/tick\n", m, d / k }'
	done
done
