# SPDX-License-Identifier: Apache-2.0
# shellcheck shell=bash
# bench/netns.sh: the network namespaces the benchmarks measure in, sourced by run.sh and
# matrix.sh (bash). bench_netns NAME checks for root, makes the measured namespace $ns (lo up) and
# the peers' $peer, a scratch folder $tmp, and removes all three on exit; grow_to N then adds veth
# pairs until $ns holds N of them (bv<i>, up; peers bp<i> in $peer; N must not decrease). No
# traffic is sent.

# Start: namespaces kn-NAME-PID and kn-NAME-peer-PID, or exit 1 without root.
bench_netns() {
	if [ "$(id -u)" != 0 ]; then
		echo "bench: $1 needs root (it creates network namespaces)" >&2
		exit 1
	fi
	ns=kn-$1-$$
	peer=kn-$1-peer-$$
	tmp=$(mktemp -d)
	have=0
	trap bench_netns_cleanup EXIT
	ip netns add "$ns"
	ip netns add "$peer"
	ip -n "$ns" link set lo up
}

# Remove the namespaces and the scratch folder.
bench_netns_cleanup() {
	ip netns del "$ns" 2>/dev/null || true
	ip netns del "$peer" 2>/dev/null || true
	rm -rf "$tmp"
}

# Add veth pairs until the measured namespace holds $1 of them, each up; exit 2 if it holds more
# (it only grows, so a smaller size would measure the wrong number of interfaces).
grow_to() {
	if [ "$1" -lt "$have" ]; then
		echo "bench: $1 interfaces asked for, but the namespace holds $have: the sizes must not decrease" >&2
		exit 2
	fi
	: >"$tmp/batch"
	: >"$tmp/up"
	for ((i = have; i < $1; i++)); do
		echo "link add bv$i netns $ns type veth peer name bp$i netns $peer" >>"$tmp/batch"
		echo "link set bv$i up" >>"$tmp/up"
	done
	[ ! -s "$tmp/batch" ] || ip -batch "$tmp/batch"
	[ ! -s "$tmp/up" ] || ip -n "$ns" -batch "$tmp/up"
	have=$1
}
