# SPDX-License-Identifier: Apache-2.0
# shellcheck shell=sh disable=SC2034 # n and failed are read by the scripts that source this
# tap.sh: the TAP helpers the shell tests share. Source it first thing:
#   . "$(dirname "$0")/tap.sh"
# It keeps n (the test points so far) and failed (1 once one has failed). A script whose check
# needs more (its own files shown on failure) defines a check of its own after sourcing.
n=0
failed=0

# ok DESCRIPTION: one passing test point.
ok() {
	n=$((n + 1))
	printf 'ok %s - %s\n' "$n" "$1"
}

# not_ok DESCRIPTION [DIAGNOSTIC]: one failing test point; the diagnostic's lines follow as comments.
not_ok() {
	n=$((n + 1))
	failed=1
	printf 'not ok %s - %s\n' "$n" "$1"
	[ -z "${2:-}" ] || printf '%s\n' "$2" | sed 's/^/# /'
}

# skip DESCRIPTION REASON: one test point that cannot run here.
skip() {
	n=$((n + 1))
	printf 'ok %s - %s # SKIP %s\n' "$n" "$1" "$2"
}

# check DESCRIPTION DIAGNOSTIC COMMAND...: ok when COMMAND succeeds, else not ok with DIAGNOSTIC.
check() {
	desc=$1 diag=$2
	shift 2
	if "$@"; then ok "$desc"; else not_ok "$desc" "$diag"; fi
}

# plan: the plan line for a script that counts as it goes (1..n).
plan() {
	printf '1..%s\n' "$n"
}
