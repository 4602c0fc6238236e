#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Compare outputs of the kvikio_nic_bandwidth recipe with each other and with a reference.

    compare-recipe.py [--rel 1e-9] [--summary-ref CSV] [--ranges-ref CSV] \\
        [--direct PQROOT] [--recipe-dir DIR] OUT [OUT ...]

OUT: recipe output folders (summary.csv/.parquet, ranges.csv/.parquet); the first is the base,
every other one must equal it (same rows, values to --rel). --summary-ref / --ranges-ref:
kvikio_nic_report --format=csv --sum [--ranges] output, the reference each OUT must match.
--direct PQROOT: also compute the reference with the recipe's own math (kn_bandwidth, from
--recipe-dir) on the parquetdir exports PQROOT/<stem>_pqtdir (what the recipe exported), or on
CSV extracts PQROOT/<stem>/*.csv (as in tests/data/recipe).
Rows are matched on (report stem, group) or (report stem, range, group), the stem being the
file name without its folder and extension. Numbers must agree to --rel relative (NaN with
NaN, 0 with 0); counts exactly. Prints one line per comparison. Exit 0 when all agree, 1 not.
"""

import argparse
import math
import os
import sys

import pandas as pd

KEYS = {"summary": ["report", "group"], "ranges": ["report", "range", "group"]}
COUNTS = {"summary": ["samples"], "ranges": ["count"]}


def stem(report):
    """A report's name without folder and extension ('(sum)' stays)."""
    base = os.path.basename(str(report))
    for ext in (".nsys-rep", ".qdrep", ".sqlite"):
        if base.endswith(ext):
            return base[: -len(ext)]
    return base


def read_out(folder, table):
    """One table of a recipe output folder (CSV if there, else Parquet), or None."""
    csv = os.path.join(folder, f"{table}.csv")
    if os.path.exists(csv):
        return pd.read_csv(csv, float_precision="round_trip", keep_default_na=False, na_values=[""])
    pq = os.path.join(folder, f"{table}.parquet")
    return pd.read_parquet(pq) if os.path.exists(pq) else None


def keyed(df, table):
    """The table indexed by its key columns (report reduced to its stem), host dropped."""
    df = df.assign(report=df["report"].map(stem))
    df = df.drop(columns=[c for c in ("host", "Rank") if c in df])
    return df.set_index(KEYS[table]).sort_index()


def agree(a, b, rel):
    """Whether two numbers agree to rel (NaN with NaN)."""
    a, b = float(a), float(b)
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    return abs(a - b) <= rel * max(abs(a), abs(b))


def compare(name, got, want, table, rel):
    """Compare two keyed tables; print what differs and one summary line; True when equal."""
    bad = []
    if set(got.index) != set(want.index):
        only_g = sorted(set(got.index) - set(want.index))[:5]
        only_w = sorted(set(want.index) - set(got.index))[:5]
        bad.append(f"rows differ: only in the first {only_g}, only in the second {only_w}")
    worst = {}
    n = 0
    for key in sorted(set(got.index) & set(want.index)):
        g, w = got.loc[key], want.loc[key]
        for col in want.columns:
            if col not in got.columns:
                bad.append(f"column {col} missing")
                continue
            n += 1
            if col in COUNTS[table]:
                ok = int(g[col]) == int(w[col])
                d = 0.0 if ok else math.inf
            else:
                ok = agree(g[col], w[col], rel)
                a, b = float(g[col]), float(w[col])
                d = 0.0 if (math.isnan(a) and math.isnan(b)) or a == b else \
                    abs(a - b) / max(abs(a), abs(b)) if not (math.isnan(a) or math.isnan(b)) else math.inf
            worst[col] = max(worst.get(col, 0.0), d)
            if not ok:
                bad.append(f"{key} {col}: {g[col]!r} != {w[col]!r}")
    print(f"{name}: {table}: {len(want)} rows, {n} values; largest relative difference per column: "
          + ", ".join(f"{c} {v:.2g}" for c, v in worst.items()))
    for line in sorted(set(bad))[:20]:
        print(f"  DIFFERS {line}")
    print(f"{name}: {table}: {'AGREE' if not bad else f'{len(bad)} DIFFERENCES'} (rel {rel:g})")
    return not bad


def direct(pqroot, recipe_dir, stems, pattern):
    """The reference from kn_bandwidth run on the parquetdir exports, with the (sum) rows."""
    sys.path.insert(0, recipe_dir)
    import kn_bandwidth as kb

    summ, rng = [], []
    for s in sorted(stems):
        d = os.path.join(pqroot, f"{s}_pqtdir")
        if not os.path.isdir(d):
            d = os.path.join(pqroot, s)  # CSV extracts, as in tests/data/recipe
        tables = {}
        for f in sorted(os.listdir(d)):
            path = os.path.join(d, f)
            if f.endswith(".parquet"):
                tables[f[: -len(".parquet")]] = pd.read_parquet(path)
            elif f.endswith(".csv"):
                tables[f[: -len(".csv")]] = pd.read_csv(path, float_precision="round_trip",
                                                        keep_default_na=False, na_values=[""])
        a, b, _ = kb.analyze_tables(f"{s}.nsys-rep", tables, pattern)
        summ.append(a)
        rng.append(b)
    summ = pd.concat(summ, ignore_index=True)
    out = {"summary": pd.concat([summ, kb.summary_sums(summ)], ignore_index=True)}
    if pattern is not None:
        r = pd.concat(rng, ignore_index=True)
        out["ranges"] = pd.concat([r, kb.range_sums(r)], ignore_index=True)
    return out


def main():
    """Parse the command line, compare, print, exit."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", nargs="+")
    ap.add_argument("--rel", type=float, default=1e-9)
    ap.add_argument("--summary-ref")
    ap.add_argument("--ranges-ref")
    ap.add_argument("--direct", metavar="PQROOT")
    ap.add_argument("--recipe-dir", default=os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                           "..", "..", "recipes", "kvikio_nic_bandwidth"))
    ap.add_argument("--pattern", default=".*", help="the --ranges regex the recipe ran with")
    args = ap.parse_args()
    ok = True
    base = {t: read_out(args.out[0], t) for t in KEYS}
    if base["summary"] is None:
        print(f"{args.out[0]}: no summary table")
        return 1
    for other in args.out[1:]:
        for t in KEYS:
            o = read_out(other, t)
            if base[t] is None and o is None:
                continue
            if base[t] is None or o is None:
                print(f"{other}: {t}: present in only one of {args.out[0]} and {other}")
                ok = False
                continue
            ok &= compare(f"{other} vs {args.out[0]}", keyed(o, t), keyed(base[t], t), t, args.rel)
    refs = {}
    if args.summary_ref:
        refs["kvikio_nic_report summary"] = ("summary", pd.read_csv(args.summary_ref, keep_default_na=False,
                                                                     na_values=[""]))
    if args.ranges_ref:
        refs["kvikio_nic_report --ranges"] = ("ranges", pd.read_csv(args.ranges_ref, keep_default_na=False,
                                                                     na_values=[""]))
    if args.direct:
        stems = {stem(r) for r in base["summary"]["report"] if r != "(sum)"}
        d = direct(args.direct, os.path.abspath(args.recipe_dir), stems,
                   args.pattern if base["ranges"] is not None else None)
        for t, df in d.items():
            refs[f"kn_bandwidth on the exports ({t})"] = (t, df)
    for name, (t, ref) in refs.items():
        if base[t] is None:
            print(f"{args.out[0]}: no {t} table to compare with {name}")
            ok = False
            continue
        ok &= compare(f"{args.out[0]} vs {name}", keyed(base[t], t), keyed(ref, t), t, args.rel)
    print("compare-recipe: " + ("all agree" if ok else "DIFFERENCES FOUND"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
