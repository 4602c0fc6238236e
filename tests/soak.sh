#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# soak.sh [TICKS]: run the plugin at -i 100 with --print for TICKS ticks (default 1000000, about
# 100 s) on a fake sysfs tree whose counters keep changing and whose interfaces come and go.
# Resident memory (VmRSS, RssAnon) and the number of open fds are sampled after a warm-up and
# again at the end, each time with all 12 interfaces present: the fds must be equal and the heap
# (RssAnon) may not grow by more than 256 kB (a leak of 3 bytes a tick at 100000 ticks; VmRSS
# also counts pages of libraries touched late, so it is printed, not compared). Not part of
# 'make check'.
# Env: KN_PLUGIN (default ./kvikio_nic_nsys_plugin).
set -eu

ticks=${1:-1000000}
plugin=${KN_PLUGIN:-./kvikio_nic_nsys_plugin}
warmup_ticks=$((ticks / 20 > 30000 ? 30000 : ticks / 20))
[ "$warmup_ticks" -ge 1000 ] || warmup_ticks=1000

tmp=$(mktemp -d "${TMPDIR:-/tmp}/kn-soak.XXXXXX")
pid="" mutator=""
cleanup() {
	[ -n "$mutator" ] && kill "$mutator" 2>/dev/null
	[ -n "$pid" ] && kill "$pid" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
root=$tmp/sys

# add_iface NAME RX TX: one interface in the fake tree.
add_iface() {
	d=$root/class/net/$1
	mkdir -p "$d/statistics"
	echo up >"$d/operstate"
	echo 0x1003 >"$d/flags"
	echo "$2" >"$d/statistics/rx_bytes"
	echo "$3" >"$d/statistics/tx_bytes"
}

# mutate: forever, grow the steady interfaces' counters and make the hot ones come and go.
mutate() {
	n=0
	while :; do
		n=$((n + 1))
		for i in 0 1 2 3; do
			echo $((n * 1000 + i)) >"$root/class/net/e$i/statistics/rx_bytes"
			echo $((n * 3000 + i)) >"$root/class/net/e$i/statistics/tx_bytes"
		done
		h=$((n % 8))
		if [ $((n / 8 % 2)) = 0 ]; then add_iface "hot$h" "$n" "$n"; else rm -rf "$root/class/net/hot$h"; fi
		sleep 0.05
	done
}

# settle: pause the mutator, put every interface back with readable counters, and wait until
# two ticks have printed a value for each of the 12: a rescan has opened them all.
settle() {
	kill -STOP "$mutator"
	for i in 0 1 2 3; do add_iface "e$i" 1 1; done
	for i in 0 1 2 3 4 5 6 7; do add_iface "hot$i" 1 1; done
	: >"$tmp/full"
	waited=0
	while [ "$(wc -c <"$tmp/full")" -lt 2 ]; do
		kill -0 "$pid" 2>/dev/null || { echo "soak.sh: the plugin died" >&2; exit 1; }
		[ "$waited" -lt 600 ] || { echo "soak.sh: the 12 interfaces never came back" >&2; exit 1; }
		sleep 0.05
		waited=$((waited + 1))
	done
}

# sample: "VmRSS RssAnon fds" of the plugin (in kB, and a count), in a settled tree.
sample() {
	settle
	rss=$(awk '/^VmRSS:/ { print $2 }' "/proc/$pid/status")
	anon=$(awk '/^RssAnon:/ { print $2 }' "/proc/$pid/status")
	fds=$(find "/proc/$pid/fd" -mindepth 1 -maxdepth 1 | wc -l)
	kill -CONT "$mutator"
	echo "$rss $anon $fds"
}

# ticks_done: ticks the counter awk has seen so far (0 while it rewrites the file).
ticks_done() {
	v=$(cat "$tmp/progress" 2>/dev/null || true)
	echo "${v:-0}"
}

# wait_ticks N: wait until N ticks have been printed (or the plugin died).
wait_ticks() {
	while [ "$(ticks_done)" -lt "$1" ]; do
		kill -0 "$pid" 2>/dev/null || { echo "soak.sh: the plugin died" >&2; exit 1; }
		sleep 0.2
	done
}

for i in 0 1 2 3; do add_iface "e$i" 0 0; done
for i in 0 1 2 3 4 5 6 7; do add_iface "hot$i" 0 0; done
mutate &
mutator=$!

mkfifo "$tmp/csv"
# Counts ticks into progress; appends a byte to full for each tick with a value for all 12.
awk -F, -v prog="$tmp/progress" -v full="$tmp/full" '
	$3 == "total" { n++; if (rows == 12) { printf "x" >> full; close(full) }; rows = 0
		if (n % 1000 == 0) { print n > prog; close(prog) }; next }
	NR > 1 && $4 != "" { rows++ }
	END { print n > prog }' <"$tmp/csv" &
counter=$!
src=""
if "$plugin" --help | grep -q -- '--source'; then src="--source=sysfs"; fi
start=$(date +%s)
# shellcheck disable=SC2086 # $src: empty or one word
"$plugin" --sysfs="$root" $src -d 'e\d|hot\d' -p -i 100 >"$tmp/csv" 2>"$tmp/err" &
pid=$!

wait_ticks "$warmup_ticks"
# shellcheck disable=SC2046 # three numbers
set -- $(sample)
rss0=$1 anon0=$2 fds0=$3
wait_ticks "$ticks"
# shellcheck disable=SC2046
set -- $(sample)
rss1=$1 anon1=$2 fds1=$3
kill -TERM "$pid"
rc=0
wait "$pid" || rc=$?
pid=""
wait "$counter" || true
done_ticks=$(ticks_done)
elapsed=$(($(date +%s) - start))

echo "soak: $done_ticks ticks at -i 100 in ${elapsed} s (12 interfaces, 8 coming and going), exit $rc"
echo "soak: after $warmup_ticks ticks: VmRSS $rss0 kB, RssAnon $anon0 kB, $fds0 fds"
echo "soak: at the end: VmRSS $rss1 kB, RssAnon $anon1 kB, $fds1 fds"
if [ "$rc" = 0 ] && [ $((anon1 - anon0)) -le 256 ] && [ "$fds0" = "$fds1" ]; then
	echo "soak: PASS (heap grew $((anon1 - anon0)) kB, at most 256; fds unchanged)"
else
	echo "soak: FAIL"
	exit 1
fi
