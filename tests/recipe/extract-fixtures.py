#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Make, or check, the CSV extracts of tests/data/recipe from nsys parquetdir exports.

    extract-fixtures.py PQDIR OUTDIR           write OUTDIR/<TABLE>.csv from PQDIR/<TABLE>.parquet
    extract-fixtures.py --check PQDIR OUTDIR   compare OUTDIR's CSVs with PQDIR, value for value

Needs pandas and pyarrow (Debian 12 has no pyarrow: run it where nsys's recipes run). Only the
tables and columns kvikio_nic_bandwidth reads are kept, and of TARGET_INFO_SYSTEM_ENV only the
Hostname row (the rest describes the recording machine). Floats are written so that they read
back bit for bit (pandas.read_csv(..., float_precision="round_trip")); NaN and NULL are empty.
Exit status: 0 done or equal, 1 a difference (each printed), 2 bad usage or missing input,
77 pandas or pyarrow missing.
"""

import math
import os
import sys

TABLES = {
    "NVTX_COUNTER_GROUPS": ["domainId", "counterGroupId", "schemaId", "name"],
    "NVTX_PAYLOAD_SCHEMAS": ["domainId", "schemaId", "name"],
    "NVTX_EVENTS": ["start", "end", "eventType", "text", "textId", "domainId"],
    "ENUM_NSYS_EVENT_TYPE": ["id", "name"],
    "TARGET_INFO_SESSION_START_TIME": ["utcEpochNs"],
    "ANALYSIS_DETAILS": ["duration"],
    "TARGET_INFO_SYSTEM_ENV": ["name", "value"],
}
SAMPLE_COLUMNS = ["timestamp", "rx", "tx"]


def fail(msg, status=2):
    """Print one line on stderr and exit."""
    print(f"extract-fixtures: {msg}", file=sys.stderr)
    sys.exit(status)


def read_export(pqdir):
    """The kept tables of one parquetdir export: {table: dataframe}."""
    import pandas as pd

    out = {}
    for table, cols in TABLES.items():
        out[table] = pd.read_parquet(os.path.join(pqdir, f"{table}.parquet"), columns=cols)
    env = out["TARGET_INFO_SYSTEM_ENV"]
    out["TARGET_INFO_SYSTEM_ENV"] = env[env["name"] == "Hostname"].reset_index(drop=True)
    for g in out["NVTX_COUNTER_GROUPS"].itertuples(index=False):
        table = f"NVTX_COUNTER_SAMPLES_{int(g.domainId)}_{int(g.counterGroupId)}"
        path = os.path.join(pqdir, f"{table}.parquet")
        if os.path.exists(path):
            out[table] = pd.read_parquet(path, columns=SAMPLE_COLUMNS)
    return out


def cell(v):
    """One CSV cell: integers as integers, floats in shortest round-trip form, NaN/NULL empty."""
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return ""
    if isinstance(v, float):
        return repr(v)
    s = str(v)
    if s == "" or any(c in s for c in ',"\n\r'):
        return '"' + s.replace('"', '""') + '"'
    return s


def write(tables, outdir):
    """Write every table as OUTDIR/<table>.csv."""
    import pandas as pd

    os.makedirs(outdir, exist_ok=True)
    for table, df in tables.items():
        with open(os.path.join(outdir, f"{table}.csv"), "w") as f:
            f.write(",".join(df.columns) + "\n")
            for row in df.astype(object).itertuples(index=False):
                f.write(",".join(cell(None if v is pd.NA else v) for v in row) + "\n")


def same(a, b):
    """Whether two cells are equal: NaN/NULL alike, numbers exactly."""
    na = a is None or (isinstance(a, float) and math.isnan(a))
    nb = b is None or (isinstance(b, float) and math.isnan(b))
    if na or nb:
        return na and nb
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return float(a) == float(b)
    return str(a) == str(b)


def check(tables, outdir):
    """Compare the CSVs in outdir with tables; the number of differences."""
    import pandas as pd

    bad = 0
    names = {f[:-4] for f in os.listdir(outdir) if f.endswith(".csv")}
    for table in sorted(names ^ set(tables)):
        print(f"{outdir}: {table}: only in {'the CSVs' if table in names else 'the export'}")
        bad += 1
    for table in sorted(names & set(tables)):
        csv = pd.read_csv(os.path.join(outdir, f"{table}.csv"), float_precision="round_trip",
                          keep_default_na=False, na_values=[""])
        pq = tables[table]
        if list(csv.columns) != list(pq.columns) or len(csv) != len(pq):
            print(f"{outdir}: {table}: columns/rows {list(csv.columns)}/{len(csv)} != {list(pq.columns)}/{len(pq)}")
            bad += 1
            continue
        for i, (x, y) in enumerate(zip(csv.astype(object).itertuples(index=False),
                                       pq.astype(object).itertuples(index=False))):
            for col, u, v in zip(pq.columns, x, y):
                v = None if v is pd.NA else v
                if not same(u, v):
                    print(f"{outdir}: {table} row {i} {col}: CSV {u!r} != export {v!r}")
                    bad += 1
    print(f"{outdir}: {len(names & set(tables))} tables compared, {bad} differences")
    return bad


def main(argv):
    """Parse the command line and run."""
    checking = bool(argv) and argv[0] == "--check"
    args = argv[1:] if checking else argv
    if len(args) != 2:
        fail("usage: extract-fixtures.py [--check] PQDIR OUTDIR")
    pqdir, outdir = args
    if not os.path.isdir(pqdir):
        fail(f"{pqdir}: not a parquetdir export")
    try:
        tables = read_export(pqdir)
    except ImportError as e:
        fail(f"needs pandas and pyarrow: {str(e).splitlines()[0]}", 77)
    if checking:
        return 1 if check(tables, outdir) else 0
    write(tables, outdir)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
