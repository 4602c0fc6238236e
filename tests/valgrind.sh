#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# valgrind.sh: the plugin under valgrind memcheck on fake sysfs trees (good, hostile, changing),
# with and without the NVTX recorder injected, stopped by --count and by SIGTERM. Any error or
# definite/indirect leak fails the run. Not part of 'make check' (slow): 'make check-valgrind'.
# Env: KN_PLUGIN (built executable, not a sanitizer build), KN_RECORDER (optional).
set -eu

: "${KN_PLUGIN:?KN_PLUGIN must name the built kvikio_nic_nsys_plugin}"
if ! command -v valgrind >/dev/null 2>&1; then
	echo "valgrind.sh: valgrind not found; skipped" >&2
	exit 77
fi
if nm -D "$KN_PLUGIN" 2>/dev/null | grep -q __asan_init; then
	echo "valgrind.sh: $KN_PLUGIN is a sanitizer build; valgrind needs a plain one" >&2
	exit 2
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/kn-valgrind.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
failures=0
runs=0

# add_iface ROOT NAME RX TX: one interface in a fake tree.
add_iface() {
	d=$1/class/net/$2
	mkdir -p "$d/statistics"
	echo up >"$d/operstate"
	echo 0x1003 >"$d/flags"
	echo "$3" >"$d/statistics/rx_bytes"
	echo "$4" >"$d/statistics/tx_bytes"
}

# vg CODE NAME ARGS...: run the plugin under memcheck (through $wrap, if set, a script that
# execs its arguments); a failure on any report or another exit.
vg() {
	code=$1 name=$2
	shift 2
	runs=$((runs + 1))
	# shellcheck disable=SC2086 # $wrap: empty or one path
	if ${wrap:-} valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect \
		--show-leak-kinds=definite,indirect --track-fds=no --log-file="$tmp/$name.vg" \
		"$KN_PLUGIN" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err" </dev/null; then
		rc=0
	else
		rc=$?
	fi
	report "$name" "$rc" "$code"
}

# report NAME RC EXPECTED: print the verdict of one run, and valgrind's log if it failed.
report() {
	if [ "$2" = "$3" ] && [ ! -s "$tmp/$1.vg" ]; then
		echo "PASS: $1 (exit $2)"
	else
		failures=$((failures + 1))
		echo "FAIL: $1 (exit $2, expected $3)"
		sed 's/^/    /' "$tmp/$1.vg" "$tmp/$1.err" | head -60
	fi
}

good=$tmp/good
add_iface "$good" e0 1000 2000
add_iface "$good" e1 5 6
add_iface "$good" lo 0 0
echo 0x9 >"$good/class/net/lo/flags"

bad=$tmp/bad
add_iface "$bad" e0 1000 2000
add_iface "$bad" b_empty 1 1 && : >"$bad/class/net/b_empty/statistics/rx_bytes"
add_iface "$bad" b_alpha 1 1 && echo abc >"$bad/class/net/b_alpha/statistics/tx_bytes"
add_iface "$bad" b_dir 1 1 && rm "$bad/class/net/b_dir/statistics/rx_bytes" &&
	mkdir "$bad/class/net/b_dir/statistics/rx_bytes"
add_iface "$bad" b_gone 1 1 && rm -r "$bad/class/net/b_gone/statistics"

# RDMA ports (--rdma): standard counters, ionic's and bnxt_re's hw_counters, bad files.
ib=$good/class/infiniband
mkdir -p "$ib/mlx5_0/ports/1/counters" "$ib/ionic_0/ports/1/hw_counters" "$ib/bnxt_re0/ports/1/hw_counters" \
	"$ib/r_bad/ports/1/counters" "$ib/r_none/ports/1"
echo 5000000000 >"$ib/mlx5_0/ports/1/counters/port_rcv_data"
echo 4294967295 >"$ib/mlx5_0/ports/1/counters/port_xmit_data"
for f in rx_rdma_ucast_bytes rx_rdma_mcast_bytes tx_rdma_ucast_bytes; do echo 7 >"$ib/ionic_0/ports/1/hw_counters/$f"; done
echo 1 >"$ib/bnxt_re0/ports/1/hw_counters/rx_bytes" && echo 2 >"$ib/bnxt_re0/ports/1/hw_counters/tx_bytes"
echo abc >"$ib/r_bad/ports/1/counters/port_rcv_data" && : >"$ib/r_bad/ports/1/counters/port_xmit_data"

src=""
if "$KN_PLUGIN" --help | grep -q -- '--source'; then src="--source=sysfs"; fi

# shellcheck disable=SC2086 # $src: empty or one word
{
	vg 0 list --sysfs="$good" -l
	vg 0 print --sysfs="$good" $src -p -n 20 -i 1000
	vg 0 regex --sysfs="$good" $src -p -n 5 -i 1000 -d 'e\d' -d 'nothing|lo'
	vg 0 hostile --sysfs="$bad" $src -p -n 10 -i 1000 -d '.*'
	vg 1 missing --sysfs="$tmp/missing" -l
	vg 1 nothing --sysfs="$good" -l -d 'x.*'
	vg 2 badregex --sysfs="$good" -l -d e0 -d '('
	vg 2 costly --sysfs="$good" -l -d 'e+++'
	vg 2 usage --sysfs="$good" -i 0
	vg 0 help --help
	vg 0 rdma --sysfs="$good" $src -p -n 20 -i 1000 --rdma
	vg 0 rdma-list --sysfs="$good" -l --rdma='mlx5.*' --rdma='bnxt_re\d:1'
	vg 2 rdma-badregex --sysfs="$good" -l --rdma='('
	vg 0 realsys -p -n 5 -i 1000 -d lo
	vg 0 metrics --sysfs="$bad" $src -p -n 10 -i 1000 -d '.*' -m util -m drops -m packets -m errors
	vg 0 metrics-list --sysfs="$good" -l -m util
	vg 0 metrics-realsys -p -n 5 -i 1000 -d lo -m packets -m util
	vg 2 metrics-twice -m drops -m drops
	if [ -n "${KN_RECORDER:-}" ] && [ -f "$KN_RECORDER" ]; then
		export NVTX_INJECTION64_PATH="$KN_RECORDER" KN_NVTX_LOG="$tmp/nvtx.log"
		vg 0 recorder --sysfs="$bad" $src -p -n 10 -i 1000 -d '.*'
		vg 0 recorder-metrics --sysfs="$good" $src -p -n 10 -i 1000 -d '.*' -m packets -m util
		vg 0 recorder-realsys -p -n 5 -i 1000 -d lo
		vg 0 recorder-rdma --sysfs="$good" $src -p -n 10 -i 1000 --rdma
		unset NVTX_INJECTION64_PATH KN_NVTX_LOG
	fi
}

# 200 interfaces and an fd limit of 256 (hard): most are read by opening their files per tick.
many=$tmp/many
i=0
while [ "$i" -lt 200 ]; do
	add_iface "$many" "e$i" "$i" "$i"
	i=$((i + 1))
done
printf '#!/bin/sh\nulimit -n 256 && exec "$@"\n' >"$tmp/limit-fds" && chmod +x "$tmp/limit-fds"
wrap=$tmp/limit-fds vg 0 fdlimit --sysfs="$many" $src -p -n 5 -i 1000
wrap=$tmp/limit-fds vg 0 fdlimit-metrics --sysfs="$many" $src -p -n 5 -i 1000 -m errors -m drops
# As root: a network namespace of its own under the host's /sys, so netlink is given up.
if [ "$(id -u)" = 0 ] && unshare -n true 2>/dev/null; then
	printf '#!/bin/sh\nexec unshare -n "$@"\n' >"$tmp/foreign-ns" && chmod +x "$tmp/foreign-ns"
	wrap=$tmp/foreign-ns vg 0 foreign-netns -p -n 5 -i 1000 -d '.*'
fi
unset wrap

# A run stopped by SIGTERM while interfaces come and go (rescans once a second).
add_iface "$good" e2 0 0
runs=$((runs + 1))
valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect \
	--show-leak-kinds=definite,indirect --log-file="$tmp/sigterm.vg" \
	"$KN_PLUGIN" --sysfs="$good" $src -p -i 2000 >"$tmp/sigterm.out" 2>"$tmp/sigterm.err" </dev/null &
pid=$!
i=0
while [ "$i" -lt 30 ]; do
	sleep 0.1
	if [ $((i % 10)) = 5 ]; then rm -r "$good/class/net/e2"; else add_iface "$good" e2 "$i" "$i"; fi
	i=$((i + 1))
done
kill -TERM "$pid"
if wait "$pid"; then rc=0; else rc=$?; fi
report sigterm "$rc" 0

echo "valgrind.sh: $runs runs, $failures failed"
[ "$failures" = 0 ]
