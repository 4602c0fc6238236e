#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# ci-reliability.sh: the reliability stage of CI, run from the source root after the main tests.
#   1. an out-of-tree build with --enable-sanitizers (ASan + UBSan, fatal) runs the whole make check;
#   2. a plain build runs make check-valgrind (memcheck, leaks fatal, with and without the recorder);
#   3. a clang --enable-fuzzing build runs each libFuzzer target for KN_FUZZ_SECONDS (default 60);
#   4. the bound on interfaces (MONITOR_MAX_IFACES) on a tree of 65537 names;
#   5. a short soak (KN_SOAK_TICKS, default 100000 ticks; 0 skips it).
# Env: KN_CI_WORK (scratch folder, kept; default a temporary one, removed), KN_FUZZ_SECONDS,
# KN_SOAK_TICKS. Installs valgrind, clang and strace with apt-get when missing and root.
set -eu

# Build from the unpacked tarball when .ci/run gives one: the checkout itself is configured in
# place by then (the README's test command), and configure refuses an out-of-tree build of it.
src=${KN_CI_DIST_SRC:-$(pwd)}
if [ ! -f "$src/configure.ac" ] || [ ! -f "$src/tests/ci-reliability.sh" ]; then
	echo "ci-reliability.sh: run me from the source root (or set KN_CI_DIST_SRC)" >&2
	exit 2
fi
if [ -f "$src/config.status" ]; then
	echo "ci-reliability.sh: $src is configured in place; run 'make distclean' there or set KN_CI_DIST_SRC" >&2
	exit 2
fi
[ -x "$src/configure" ] || (cd "$src" && ./bootstrap)
work=${KN_CI_WORK:-${KN_CI_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/kn-reliability.XXXXXX")}}
fuzz_seconds=${KN_FUZZ_SECONDS:-60}
soak_ticks=${KN_SOAK_TICKS:-100000}
jobs=$(nproc 2>/dev/null || echo 2)

step() { printf '\n==== ci-reliability: %s\n' "$*"; }

# need COMMAND PACKAGE: install PACKAGE with apt-get when COMMAND is missing (best effort).
need() {
	command -v "$1" >/dev/null 2>&1 && return 0
	if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
		apt-get install -y -qq "$2" >/dev/null 2>&1 || echo "ci-reliability: could not install $2"
	fi
}
need valgrind valgrind
need clang clang
need strace strace
# valgrind is no optional part: step 2 needs it, and without strace the sanitizer run skips checks.
for tool in valgrind strace; do
	command -v "$tool" >/dev/null 2>&1 && continue
	if [ "${CI:-}" = true ]; then
		echo "ci-reliability: $tool is missing, and CI=true allows no skipped check" >&2
		exit 1
	fi
	echo "ci-reliability: $tool is missing: its checks will be skipped or fail"
done

# build DIR CONFIGURE-ARGS...: configure out of tree in $work/DIR and make.
build() {
	dir=$work/$1
	shift
	rm -rf "$dir" && mkdir -p "$dir"
	(cd "$dir" && "$src/configure" -q "$@" && make -s -j"$jobs")
}

# ---- 1. The whole suite under ASan + UBSan ------------------------------------------------------
step "make check with --enable-sanitizers"
build asan --enable-werror --enable-sanitizers
# The suite exactly as a user runs it, no wrapper in PATH: tests/sources.test turns leak checks off
# itself for its runs under strace (LeakSanitizer cannot run under ptrace).
# Every report is fatal; the recorder .so is instrumented too and loads into the instrumented plugin.
ASAN_OPTIONS=detect_leaks=1:detect_stack_use_after_return=1:check_initialization_order=1
UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export ASAN_OPTIONS UBSAN_OPTIONS
if ! (cd "$work/asan" && make -s -j"$jobs" check); then
	cat "$work/asan/test-suite.log" >&2 || true
	exit 1
fi
unset ASAN_OPTIONS UBSAN_OPTIONS

# ---- 2. valgrind --------------------------------------------------------------------------------
step "make check-valgrind"
build plain --enable-werror
(cd "$work/plain" && make -s tests/nvtx-recorder.la && make -s check-valgrind)

# ---- 3. libFuzzer -------------------------------------------------------------------------------
step "libFuzzer targets, $fuzz_seconds s each"
if command -v clang >/dev/null 2>&1; then
	build fuzz CC=clang --enable-fuzzing
	for target in fuzz_options fuzz_select fuzz_sysfs fuzz_netlink; do
		mkdir -p "$work/corpus/$target"
		(cd "$work/fuzz" && "./tests/fuzz/$target" -max_total_time="$fuzz_seconds" -max_len=256 \
			-timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
			"$work/corpus/$target" "$src/tests/fuzz/corpus/$target" 2>"$work/$target.log") || {
			tail -60 "$work/$target.log" >&2
			echo "ci-reliability: $target found a crash; the input is in $work/fuzz" >&2
			exit 1
		}
		grep -E 'stat::number_of_executed_units|stat::new_units_added' "$work/$target.log" |
			sed "s/^/$target: /"
	done
elif [ "${CI:-}" = true ]; then
	echo "ci-reliability: clang not found: fuzzing cannot run, and CI=true allows no skipped step" >&2
	exit 1
else
	echo "ci-reliability: skip: fuzzing: clang not found"
fi

# ---- 4. At most MONITOR_MAX_IFACES interfaces, whatever the tree holds ------------------------
step "memory bound: 65537 interfaces"
max=$(sed -n 's/^#define MONITOR_MAX_IFACES \([0-9]*\).*/\1/p' "$src/src/monitor.h")
shm=${TMPDIR:-/tmp}
[ -d /dev/shm ] && [ -w /dev/shm ] && shm=/dev/shm # tmpfs: 65537 folders made and removed fast
big=$(mktemp -d "$shm/kn-bigtree.XXXXXX")
mkdir -p "$big/class/net"
(cd "$big/class/net" && awk -v n="$((max + 1))" 'BEGIN { for (i = 0; i < n; i++) print "x" i }' | xargs mkdir)
listed=$("$work/plain/kvikio_nic_nsys_plugin" --sysfs="$big" -l -d 'x.*' | wc -l)
# The peak RSS once 2 ticks are printed (read while the process lives, so it covers the scan and
# the sampling): 12 MiB measured for 65536 interfaces; 64 MiB means a leak or a copy per tick.
: >"$work/bigtree.csv" # there before the plugin's shell makes it: grep -c reads 0, not an error
"$work/plain/kvikio_nic_nsys_plugin" --sysfs="$big" --source=sysfs -d 'x.*' -p -i 1000 \
	>"$work/bigtree.csv" 2>/dev/null </dev/null &
pid=$!
i=0
while [ "$i" -lt 1200 ] && [ "$(grep -c ',total,' "$work/bigtree.csv" || true)" -lt 3 ] &&
	kill -0 "$pid" 2>/dev/null; do
	sleep 0.05
	i=$((i + 1))
done
ticks=$(($(grep -c ',total,' "$work/bigtree.csv" || true) - 1)) # the baseline's row is no tick
hwm=$(awk '/^VmHWM:/ { print $2 }' "/proc/$pid/status" 2>/dev/null || echo 0)
kill -TERM "$pid" 2>/dev/null || true
wait "$pid" || { echo "ci-reliability: the plugin on 65537 interfaces did not exit 0" >&2; exit 1; }
rm -rf "$big" "$work/bigtree.csv"
echo "listed $listed of $((max + 1)) interfaces; peak RSS after $ticks ticks: ${hwm:-?} kB"
[ "$listed" = "$max" ] || { echo "ci-reliability: expected $max interfaces listed" >&2; exit 1; }
[ "$ticks" -ge 2 ] || { echo "ci-reliability: no 2 ticks on 65537 interfaces within 60 s" >&2; exit 1; }
if [ "${hwm:-0}" -le 0 ] || [ "${hwm:-0}" -ge 65536 ]; then
	echo "ci-reliability: peak RSS ${hwm:-?} kB is not below 64 MiB" >&2
	exit 1
fi

# ---- 5. Soak ------------------------------------------------------------------------------------
if [ "$soak_ticks" -gt 0 ]; then
	step "soak, $soak_ticks ticks at -i 100"
	KN_PLUGIN=$work/plain/kvikio_nic_nsys_plugin sh "$src/tests/soak.sh" "$soak_ticks"
fi

step "all reliability checks passed"
[ -n "${KN_CI_WORK:-}${KN_CI_DIR:-}" ] || rm -rf "$work"
