#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# check-recipe.sh: the proof of the nsys recipe kvikio_nic_bandwidth against a real Nsight Systems.
# Not part of make check (it needs nsys and its recipe framework's Python packages); see
# tests/nsys/README.md. Exits 77 (skip) when nsys or the Python packages are missing.
#
#   tests/nsys/check-recipe.sh --input DIR [--nsys PATH] [--report-tool PATH] [--modes LIST]
#                              [--pythonpath DIR [--site-pth]] [--work DIR]
#
# --pythonpath DIR adds DIR (e.g. recipe-pydeps.sh's dask) to PYTHONPATH; with --site-pth also
# as a .pth file in python3's site-packages, removed at exit (for an nsys that sets PYTHONPATH).
# DIR holds .nsys-rep reports recorded with --enable=kvikio_nic (copied to a scratch folder
# first: the framework writes its <stem>_pqtdir exports beside the reports). For each mode of
# LIST (default "none concurrent dask-futures") it runs
#   NSYS_RECIPE_PATH=<srcdir>/recipes nsys recipe kvikio_nic_bandwidth --input COPY --ranges --csv
#     --mode MODE
# and compares (tests/nsys/compare-recipe.py, 1e-9 relative): every mode with the first; the
# first with kvikio_nic_report --format=csv --sum [--ranges] on the same reports when that
# program is found (--report-tool, KN_REPORT_TOOL, the build tree's, or PATH); always with the
# recipe's math (kn_bandwidth) run directly on full parquetdir exports made here. Reports whose
# name has a folder in tests/data/recipe also get their CSV extracts checked against those
# exports (tests/recipe/extract-fixtures.py --check). Everything goes to stdout; exit 0 when all agree.
set -eu

src=$(cd "$(dirname "$0")/../.." && pwd)
nsys=${NSYS:-}
input=""
report_tool=${KN_REPORT_TOOL:-}
modes="none concurrent dask-futures"
work=""
pythonpath=""
site_pth=no
pth_file=""

# say MESSAGE: one line on stdout, prefixed.
say() { printf 'check-recipe: %s\n' "$*"; }
# die STATUS MESSAGE: one line on stderr, then exit STATUS.
die() {
	local status=$1
	shift
	printf 'check-recipe: %s\n' "$*" >&2
	exit "$status"
}

while [ $# -gt 0 ]; do
	case $1 in
	--input) input=${2:?--input needs a folder}; shift 2 ;;
	--nsys) nsys=${2:?--nsys needs a path}; shift 2 ;;
	--report-tool) report_tool=${2:?--report-tool needs a path}; shift 2 ;;
	--modes) modes=${2:?--modes needs a list}; shift 2 ;;
	--pythonpath) pythonpath=${2:?--pythonpath needs a folder}; shift 2 ;;
	--site-pth) site_pth=yes; shift ;;
	--work) work=${2:?--work needs a folder}; shift 2 ;;
	-h | --help) sed -n '3,22p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) die 2 "unknown argument '$1' (see --help)" ;;
	esac
done
[ -n "$input" ] || die 2 "--input DIR is required (a folder of .nsys-rep reports)"
[ -d "$input" ] || die 2 "--input $input: not a folder"

# nsys: --nsys, NSYS, PATH, then the newest under /opt/nvidia.
if [ -z "$nsys" ]; then
	nsys=$(command -v nsys 2>/dev/null ||
		find /opt/nvidia -type f -name nsys -path '*target-linux-x64*' 2>/dev/null | sort -V | tail -1 || true)
fi
if [ -z "$nsys" ] || [ ! -x "$nsys" ]; then
	die 77 "no nsys found (give --nsys PATH or NSYS): skipped"
fi
say "nsys: $nsys ($("$nsys" --version 2>&1 | head -1))"

if [ -n "$pythonpath" ]; then
	export PYTHONPATH="$pythonpath${PYTHONPATH:+:$PYTHONPATH}"
fi
python=$(command -v python3 || true)
[ -n "$python" ] || die 77 "no python3 on PATH (nsys recipe needs one): skipped"
if [ "$site_pth" = yes ] && [ -n "$pythonpath" ]; then
	site=$("$python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
	pth_file=$site/kn-check-recipe.pth
	trap 'rm -f "$pth_file"' EXIT
	(cd "$pythonpath" && pwd) >"$pth_file" || die 1 "cannot write $pth_file"
	say "python path file: $pth_file"
fi
if ! "$python" -c 'import numpy, pandas, pyarrow, psutil' 2>/dev/null; then
	die 77 "$python lacks what nsys recipe needs (numpy pandas pyarrow psutil): skipped"
fi
say "python: $python ($("$python" -c 'import sys, pandas, pyarrow; print(sys.version.split()[0], "pandas", pandas.__version__, "pyarrow", pyarrow.__version__)'))"
case " $modes " in
*" dask-futures "*)
	if ! v=$("$python" -c 'import dask, distributed; print("dask", dask.__version__, "distributed", distributed.__version__)' 2>&1); then
		die 77 "mode dask-futures needs dask and distributed ($(printf '%s' "$v" | tail -1)); give --pythonpath or --modes without it: skipped"
	fi
	say "dask: $v"
	;;
esac

# The C program, when there is one: for the comparison with kvikio_nic_report.
if [ -z "$report_tool" ]; then
	for c in "$src/_build/kvikio_nic_report" "$src/kvikio_nic_report"; do
		[ -x "$c" ] && { report_tool=$c; break; }
	done
	[ -n "$report_tool" ] || report_tool=$(command -v kvikio_nic_report 2>/dev/null || true)
fi

if [ -z "$work" ]; then
	work=$(mktemp -d "${TMPDIR:-/tmp}/kn-check-recipe.XXXXXX")
fi
mkdir -p "$work/in"
set -- "$input"/*.nsys-rep
[ -e "$1" ] || die 2 "--input $input: no .nsys-rep file there"
cp "$@" "$work/in/"
say "reports: $(cd "$work/in" && printf '%s ' *.nsys-rep)"
say "scratch: $work"

status=0
outs=()
for mode in $modes; do
	out=$work/out-$mode
	say "== nsys recipe kvikio_nic_bandwidth --mode $mode"
	# NSYS_DASK_*: the framework's Client() arguments; two worker processes prove the mapping.
	if ! NSYS_RECIPE_PATH="$src/recipes" NSYS_DASK_N_WORKERS=2 NSYS_DASK_THREADS_PER_WORKER=1 \
		"$nsys" recipe kvikio_nic_bandwidth --input "$work/in" --ranges --csv --mode "$mode" \
		--output "$out" --force-overwrite >"$work/recipe-$mode.log" 2>&1; then
		cat "$work/recipe-$mode.log"
		say "mode $mode: nsys recipe FAILED"
		status=1
		continue
	fi
	cat "$work/recipe-$mode.log"
	for f in summary.parquet ranges.parquet heatmap.parquet files.parquet heatmap.ipynb; do
		[ -s "$out/$f" ] || { say "mode $mode: no $f in $out"; status=1; }
	done
	say "mode $mode: $(cd "$out" && printf '%s ' *)"
	outs+=("$out")
done
[ ${#outs[@]} -gt 0 ] || die 1 "no mode produced output"

say "== summary (first mode)"
"$python" -c 'import sys, pandas as pd; pd.set_option("display.width", 250); print(pd.read_csv(sys.argv[1]).to_string())' \
	"${outs[0]}/summary.csv" || say "cannot print ${outs[0]}/summary.csv"

refs=()
if [ -n "$report_tool" ]; then
	say "== kvikio_nic_report: $report_tool"
	if "$report_tool" --nsys="$nsys" --format=csv --sum "$work/in"/*.nsys-rep >"$work/report-summary.csv" &&
		"$report_tool" --nsys="$nsys" --format=csv --sum --ranges "$work/in"/*.nsys-rep >"$work/report-ranges.csv"; then
		refs+=(--summary-ref "$work/report-summary.csv" --ranges-ref "$work/report-ranges.csv")
	else
		say "kvikio_nic_report FAILED on these reports"
		status=1
	fi
else
	say "== kvikio_nic_report: NOT FOUND (give --report-tool PATH); comparing with the recipe's own math only"
fi

# Full exports of our own: the recipe's <stem>_pqtdir holds only the tables it asked for, each
# export with --force-overwrite.
say "== nsys export --type parquetdir (every table) for the direct comparison and the fixtures"
mkdir -p "$work/pq"
direct=(--direct "$work/pq")
for rep in "$work/in"/*.nsys-rep; do
	stem=$(basename "$rep" .nsys-rep)
	if ! "$nsys" export --type parquetdir --force-overwrite=true -o "$work/pq/${stem}_pqtdir" "$rep" \
		>"$work/export-$stem.log" 2>&1; then
		cat "$work/export-$stem.log"
		say "$stem: nsys export FAILED: no direct comparison"
		status=1
		direct=()
	fi
done

say "== comparisons"
"$python" "$src/tests/nsys/compare-recipe.py" --recipe-dir "$src/recipes/kvikio_nic_bandwidth" \
	${direct[@]+"${direct[@]}"} ${refs[@]+"${refs[@]}"} "${outs[@]}" || status=1

say "== fixtures (tests/data/recipe) against the fresh exports"
for rep in "$work/in"/*.nsys-rep; do
	stem=$(basename "$rep" .nsys-rep)
	if [ ! -d "$src/tests/data/recipe/$stem" ] || [ ! -d "$work/pq/${stem}_pqtdir" ]; then
		continue
	fi
	"$python" "$src/tests/recipe/extract-fixtures.py" --check "$work/pq/${stem}_pqtdir" \
		"$src/tests/data/recipe/$stem" || status=1
done

if [ "$status" = 0 ]; then say "PASSED"; else say "FAILED"; fi
exit "$status"
