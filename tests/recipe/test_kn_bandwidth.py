# SPDX-License-Identifier: Apache-2.0
"""Tests of the kvikio_nic_bandwidth recipe's math (kn_bandwidth), without nsys. TAP on stdout.

Usage: python3 test_kn_bandwidth.py SRCDIR
Synthetic dataframes with exact expected integrals, percentiles and range overlaps; then the
real reports of tests/data/recipe (CSV extracts of nsys 2025.3.1 parquetdir exports, see
tests/data/recipe/README.md) against the kernel's byte counts that the workload printed.
"""

import math
import os
import sys
import traceback

import numpy as np
import pandas as pd

SRCDIR = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "..")
sys.path.insert(0, os.path.join(SRCDIR, "recipes", "kvikio_nic_bandwidth"))
import kn_bandwidth as kb  # noqa: E402

DATA = os.path.join(SRCDIR, "tests", "data", "recipe")
S = 1_000_000_000  # ns per second
TESTS = []


def test(fn):
    """Register a test point."""
    TESTS.append(fn)
    return fn


def near(a, b, rel=1e-12, abs_=0.0):
    """Whether a and b agree (NaN equals NaN)."""
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    return abs(a - b) <= max(rel * max(abs(a), abs(b)), abs_)


def expect(cond, what):
    """Fail the current test point with what unless cond."""
    if not cond:
        raise AssertionError(what)


def frame(ts, rx, tx=None):
    """A samples table: timestamps in ns, rates in MiB/s (tx defaults to rx)."""
    return pd.DataFrame({"timestamp": np.asarray(ts, dtype=np.int64),
                         "rx": np.asarray(rx, dtype=float),
                         "tx": np.asarray(rx if tx is None else tx, dtype=float)})


def summary_of(samples):
    """group_summary() of one samples table."""
    return kb.group_summary(kb.windows(samples))


def ranges(*spans):
    """A ranges table from (name, start ns, end ns) tuples."""
    return pd.DataFrame(spans, columns=["name", "start", "end"]).astype({"start": "int64", "end": "int64"})


def by_range(rows):
    """Range rows keyed by range name."""
    return {r["range"]: r for r in rows}


# ---- synthetic ------------------------------------------------------------------------------

@test
def first_sample_covers_one_median_interval():
    w = kb.windows(frame([10 * S, 11 * S, 13 * S, 14 * S], [1, 1, 1, 1]))
    expect(list(w["a"]) == [9 * S, 10 * S, 11 * S, 13 * S], f"window starts {list(w['a'])}")
    expect(kb.median_interval([0, 1, 3, 4]) == 1.0, "median of gaps 1, 2, 1")
    expect(kb.median_interval([0, 1, 3]) == 1.5, "median of gaps 1, 2 is their mean")
    expect(kb.median_interval([5]) == 0.0, "one sample: no interval")
    # Only the first 1000 intervals count (kvikio_nic_report keeps no more): 1000 of 1 s, then 2000 of 5 s.
    ts = np.concatenate([np.arange(1001) * S, 1000 * S + np.arange(1, 2001) * 5 * S])
    expect(kb.median_interval(ts) == float(S), f"first 1000 intervals: {kb.median_interval(ts)}")
    expect(kb.median_interval(ts[:1002]) == float(S), "1001 intervals: the first 1000")


@test
def integral_mean_percentiles_max():
    r = summary_of(frame([1 * S, 2 * S, 3 * S, 5 * S], [1, 2, 3, 4], [4, 3, 2, 1]))
    expect(r["samples"] == 4 and r["seconds"] == 5.0, f"samples {r['samples']} seconds {r['seconds']}")
    expect(r["rx_MiB"] == 14.0 and r["tx_MiB"] == 11.0, f"MiB {r['rx_MiB']} {r['tx_MiB']}")
    expect(near(r["rx_mean"], 2.8) and near(r["tx_mean"], 2.2), f"mean {r['rx_mean']} {r['tx_mean']}")
    expect(r["rx_p50"] == 2.5 and near(r["rx_p95"], 3.85), f"p50 {r['rx_p50']} p95 {r['rx_p95']}")
    expect(r["rx_max"] == 4.0 and r["tx_max"] == 4.0, "max")


@test
def samples_unsorted_in_storage_are_sorted_by_time():
    a = summary_of(frame([3 * S, 1 * S, 5 * S, 2 * S], [3, 1, 4, 2], [2, 4, 1, 3]))
    expect(a["rx_MiB"] == 14.0 and a["tx_MiB"] == 11.0, f"MiB {a['rx_MiB']} {a['tx_MiB']}")


@test
def no_value_samples_count_for_nothing():
    # The sample at 3 s has no value: its window (2, 3] is dropped, the next still covers (3, 5].
    r = summary_of(frame([1 * S, 2 * S, 3 * S, 5 * S], [1, 2, np.nan, 4], [1, 2, np.nan, 4]))
    expect(r["samples"] == 3 and r["seconds"] == 4.0, f"samples {r['samples']} seconds {r['seconds']}")
    expect(r["rx_MiB"] == 11.0, f"rx_MiB {r['rx_MiB']}")
    expect(r["rx_p50"] == 2.0 and r["rx_max"] == 4.0, f"p50 {r['rx_p50']} max {r['rx_max']}")
    # nsys 2025.3.1's export of nvtxCounterSampleNoValue: rx = 9.9e-324, tx = 0.
    r = summary_of(frame([1 * S, 2 * S, 3 * S, 5 * S], [1, 2, 9.9e-324, 4], [1, 2, 0.0, 4]))
    expect(r["samples"] == 3 and r["rx_MiB"] == 11.0, f"subnormal: samples {r['samples']} MiB {r['rx_MiB']}")
    # One field missing: the sample has no value.
    r = summary_of(frame([1 * S, 2 * S], [1, 2], [1, np.nan]))
    expect(r["samples"] == 1 and r["tx_MiB"] == 1.0, f"half: samples {r['samples']} tx {r['tx_MiB']}")
    # An honest zero is a value.
    r = summary_of(frame([1 * S, 2 * S], [0, 0]))
    expect(r["samples"] == 2 and r["rx_p50"] == 0.0, "zero is a value")


@test
def no_samples_or_no_values():
    for name, s in (("empty", frame([], [])), ("all NaN", frame([1 * S, 2 * S], [np.nan, np.nan]))):
        r = summary_of(s)
        expect(r["samples"] == 0 and r["seconds"] == 0 and r["rx_MiB"] == 0, f"{name}: {r}")
        expect(all(math.isnan(r[k]) for k in ("rx_mean", "rx_p50", "rx_p95", "rx_max")), f"{name}: {r}")


@test
def a_single_sample_covers_nothing():
    r = summary_of(frame([7 * S], [3]))
    expect(r["samples"] == 1 and r["seconds"] == 0 and r["rx_MiB"] == 0, f"{r}")
    expect(math.isnan(r["rx_mean"]) and r["rx_p50"] == 3.0 and r["rx_max"] == 3.0, f"{r}")


@test
def percentile_is_numpys_linear_one():
    rng = np.random.default_rng(19)
    for n in (1, 2, 3, 10, 101, 1000):
        x = rng.exponential(100.0, n)
        for p in (0, 5, 50, 95, 99.9, 100):
            expect(near(kb.percentile(x, p), float(np.percentile(x, p)), 1e-12), f"n {n} p {p}")
    expect(math.isnan(kb.percentile([], 50)), "empty: NaN")
    expect(kb.percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11], 95) == 10.5, "h = 9.5")


@test
def range_overlap_is_weighted_by_time():
    # Windows (0, 1], (1, 2], (2, 4]; rates 2, 4, 1 MiB/s; the first starts at 1 - median (1) = 0.
    w = kb.windows(frame([1 * S, 2 * S, 4 * S], [2, 4, 1], [0, 1, 0]))
    rows = by_range(kb.range_rows(w, ranges(
        ("mid", S // 2, 3 * S // 2),      # half of (0,1] at 2 + half of (1,2] at 4 = 3 MiB
        ("all", 0, 4 * S),               # 2 + 4 + 2 = 8
        ("before", -5 * S, -1 * S),       # before the first window: nothing
        ("after", 4 * S, 9 * S),          # after the last: nothing
        ("tail", 3 * S, 6 * S),           # (3, 4] at 1 = 1
    ), "g"))
    expect(near(rows["mid"]["rx_MiB"], 3.0) and near(rows["mid"]["tx_MiB"], 0.5), f"mid {rows['mid']}")
    expect(near(rows["all"]["rx_MiB"], 8.0), f"all {rows['all']}")
    expect(rows["before"]["rx_MiB"] == 0 and rows["after"]["rx_MiB"] == 0, "outside the samples")
    expect(near(rows["tail"]["rx_MiB"], 1.0) and near(rows["tail"]["rx_mean"], 1.0 / 3.0), f"tail {rows['tail']}")
    expect(rows["mid"]["count"] == 1 and rows["mid"]["seconds"] == 1.0, "count, seconds")


@test
def nested_and_repeated_ranges_each_count():
    w = kb.windows(frame([1 * S, 2 * S, 3 * S, 4 * S], [1, 1, 1, 1]))
    rows = by_range(kb.range_rows(w, ranges(
        ("outer", 0, 4 * S), ("inner", 1 * S, 2 * S), ("inner", 2 * S, 3 * S), ("inner", 1 * S, 3 * S)), "g"))
    expect(rows["outer"]["rx_MiB"] == 4.0, f"outer {rows['outer']}")
    expect(rows["inner"]["count"] == 3 and rows["inner"]["seconds"] == 4.0, f"inner {rows['inner']}")
    expect(near(rows["inner"]["rx_MiB"], 4.0) and near(rows["inner"]["rx_mean"], 1.0), f"inner {rows['inner']}")
    expect([r["range"] for r in kb.range_rows(w, ranges(("b", 0, 1), ("B", 0, 1), ("a", 0, 1)), "g")]
           == ["B", "a", "b"], "names in byte order")


@test
def a_gap_and_a_no_value_inside_a_range():
    # A gap of 3 s before the sample at 5 s: that sample covers (2, 5]; the one at 6 s has no value.
    w = kb.windows(frame([1 * S, 2 * S, 5 * S, 6 * S, 7 * S], [1, 1, 2, np.nan, 3]))
    rows = by_range(kb.range_rows(w, ranges(("gap", 3 * S, 4 * S), ("nv", 5 * S, 7 * S)), "g"))
    expect(near(rows["gap"]["rx_MiB"], 2.0), f"gap {rows['gap']}")
    expect(near(rows["nv"]["rx_MiB"], 3.0), f"no value inside {rows['nv']}")
    r = summary_of(frame([1 * S, 2 * S, 5 * S, 6 * S, 7 * S], [1, 1, 2, np.nan, 3]))
    expect(r["seconds"] == 6.0 and r["rx_MiB"] == 11.0 and r["samples"] == 4, f"summary {r}")


@test
def zero_length_range_and_duplicate_times():
    w = kb.windows(frame([1 * S, 2 * S, 2 * S, 3 * S], [1, 5, 7, 1]))
    rows = by_range(kb.range_rows(w, ranges(("z", 2 * S, 2 * S), ("w", 1 * S, 3 * S)), "g"))
    expect(rows["z"]["rx_MiB"] == 0 and math.isnan(rows["z"]["rx_mean"]), f"zero length {rows['z']}")
    expect(near(rows["w"]["rx_MiB"], 6.0), f"duplicate time {rows['w']}")


def tables(**kw):
    """Minimal export tables for select_groups() and analyze_tables()."""
    base = {
        "NVTX_EVENTS": pd.DataFrame({
            "start": [1, 2, 1 * S, 3 * S], "end": [None, None, 2 * S, None],
            "eventType": [75, 75, 59, 59], "text": ["KvikIO NIC", "other", "r", "open"],
            "textId": [None] * 4, "domainId": [1, 2, 0, 0]}),
        "NVTX_PAYLOAD_SCHEMAS": pd.DataFrame({
            "domainId": [1, 1, 1, 2], "schemaId": [10, 11, 12, 10],
            "name": ["NIC bandwidth: eth0", "NIC bandwidth: total", "something else", "NIC bandwidth: x"]}),
        "NVTX_COUNTER_GROUPS": pd.DataFrame({
            "domainId": [1, 1, 1, 2], "counterGroupId": [2, 1, 3, 1], "schemaId": [11, 10, 12, 10],
            "name": ["total", "eth0", "other", "x"]}),
        "TARGET_INFO_SYSTEM_ENV": pd.DataFrame({"name": ["CpuCores", "Hostname"], "value": ["4", "node7"]}),
        "NVTX_COUNTER_SAMPLES_1_1": frame([1 * S, 2 * S], [1, 2]),
        "NVTX_COUNTER_SAMPLES_1_2": frame([1 * S, 2 * S], [1, 3]),
    }
    base.update(kw)
    return base


@test
def only_kvikio_nic_groups_in_registration_order():
    t = tables()
    ids = kb.event_type_ids(None)
    g = kb.select_groups(t["NVTX_COUNTER_GROUPS"], t["NVTX_PAYLOAD_SCHEMAS"], kb.kvikio_domains(t["NVTX_EVENTS"], ids))
    expect(list(g["group"]) == ["eth0", "total"] and list(g["counterGroupId"]) == [1, 2], f"{g}")
    expect(kb.select_groups(t["NVTX_COUNTER_GROUPS"], t["NVTX_PAYLOAD_SCHEMAS"], set()).empty, "no domain: none")
    shared = t["NVTX_PAYLOAD_SCHEMAS"].assign(name=["NIC bandwidth"] * 3 + ["x"])
    g = kb.select_groups(t["NVTX_COUNTER_GROUPS"], shared, {1})
    expect(list(g["group"]) == ["#1", "#2", "#3"], f"shared schema: {list(g['group'])}")
    enum = pd.DataFrame({"id": [1, 2], "name": ["NvtxDomainCreate", "NvtxPushPopRange"]})
    expect(kb.event_type_ids(enum)["NvtxDomainCreate"] == 1, "ids from ENUM_NSYS_EVENT_TYPE")


@test
def one_report_end_to_end():
    summ, rng, heat = kb.analyze_tables("r.nsys-rep", tables(), ".*", edges=[0, S, 2 * S, 3 * S], offset=0)
    expect(list(summ.columns) == kb.SUMMARY_COLUMNS and list(rng.columns) == kb.RANGE_COLUMNS, "columns")
    expect(list(summ["group"]) == ["eth0", "total"] and set(summ["host"]) == {"node7"}, f"{summ}")
    expect(list(summ["rx_MiB"]) == [3.0, 4.0], f"{list(summ['rx_MiB'])}")
    expect(list(rng["range"]) == ["r", "r"] and list(rng["rx_MiB"]) == [2.0, 3.0], f"{rng}")
    expect(list(heat["Duration"]) == [0, S, 0, S] and list(heat["rx"]) == [1.0, 2.0, 1.0, 3.0], f"{heat}")
    _, none, _ = kb.analyze_tables("r", tables(), None)
    expect(none.empty, "no pattern: no range table")
    _, only, _ = kb.analyze_tables("r", tables(), "o.*")
    expect(only.empty, "an unended range ('open') never counts")


@test
def range_regex_matches_the_whole_name():
    ev = pd.DataFrame({"start": [0, 0, 0], "end": [1, 1, 1], "eventType": [59, 60, 59],
                       "text": ["load batch", "load", "preload"], "textId": [None] * 3, "domainId": [0] * 3})
    ids = kb.event_type_ids(None)
    names = lambda p: sorted(kb.ranges_of(ev, ids, p)["name"])  # noqa: E731
    expect(names("load") == ["load"], f"load: {names('load')}")
    expect(names("load.*") == ["load", "load batch"], f"load.*: {names('load.*')}")
    expect(names(".*load") == ["load", "preload"], f".*load: {names('.*load')}")
    strings = pd.DataFrame({"id": [5], "value": ["registered"]})
    ev2 = pd.DataFrame({"start": [0], "end": [1], "eventType": [59], "text": [None], "textId": [5], "domainId": [0]})
    expect(list(kb.ranges_of(ev2, ids, ".*", strings)["name"]) == ["registered"], "textId through StringIds")


@test
def sum_rows_are_kvikio_nic_reports():
    s1, r1, _ = kb.analyze_tables("a", tables(), ".*")
    empty = tables(NVTX_COUNTER_SAMPLES_1_1=frame([], []))
    s2, r2, _ = kb.analyze_tables("b", empty, ".*")
    summ = pd.concat([s1, s2], ignore_index=True)
    sums = kb.summary_sums(summ)
    expect(list(sums["group"]) == ["eth0", "total"] and set(sums["report"]) == {"(sum)"}, f"{sums}")
    eth0 = sums.iloc[0]
    expect(eth0["samples"] == 2 and eth0["rx_MiB"] == 3.0 and eth0["seconds"] == 2.0, f"{eth0}")
    expect(eth0["rx_mean"] == 1.5 and math.isnan(eth0["rx_p50"]) and eth0["host"] == "", "NaN mean skipped")
    expect(sums.iloc[1]["rx_mean"] == 4.0, "means summed: 2 + 2")
    rs = kb.range_sums(pd.concat([r1, r2], ignore_index=True))
    expect(list(zip(rs["range"], rs["group"])) == [("r", "eth0"), ("r", "total")], f"{rs}")
    expect(list(rs["count"]) == [2, 2] and list(rs["rx_MiB"]) == [2.0, 6.0], f"{rs}")
    expect(list(rs["rx_mean"]) == [2.0, 6.0], "range means summed, NaN skipped")
    expect(math.isnan(kb.add_defined([math.nan])) and math.isnan(kb.add_defined([])), "all NaN: NaN")


# ---- the real reports -----------------------------------------------------------------------

def load(tag):
    """The CSV extracts of one fixture report, as the recipe's DataService would give them."""
    d = os.path.join(DATA, tag)
    out = {}
    for f in sorted(os.listdir(d)):
        if f.endswith(".csv"):
            out[f[:-4]] = pd.read_csv(os.path.join(d, f), float_precision="round_trip",
                                      keep_default_na=False, na_values=[""])
    return out


def kernel(tag, kind):
    """The workload's kernel byte counts: [(name, rx bytes, tx bytes)] of lines starting with kind."""
    with open(os.path.join(DATA, tag, {"range": "kernel.ranges", "fake": "kernel.fake"}[kind])) as f:
        return [(p[1], int(p[2]), int(p[3])) for p in (line.rstrip("\n").split("\t") for line in f)
                if p and p[0] == kind]


def real_ranges_match_the_kernel(tag, groups):
    """Per range name, the recipe's MiB against the kernel's lo deltas: 2 % where the range moved
    more than 5 % of the epochs' bytes, else within 1 % of those (a sample straddling a boundary)."""
    summ, rng, _ = kb.analyze_tables(tag + ".nsys-rep", load(tag), ".*")
    want = {}
    for name, rx, tx in kernel(tag, "range"):
        want.setdefault(name, [0, 0])
        want[name][0] += rx
        want[name][1] += tx
    epoch = want["epoch"][0]
    for g in groups:
        got = {r.range: r for r in rng[rng["group"] == g].itertuples()}
        expect(set(got) == set(want), f"{g}: ranges {sorted(got)} != {sorted(want)}")
        for name, (rx, tx) in want.items():
            r = got[name]
            for field, kbytes in (("rx", rx), ("tx", tx)):
                b = getattr(r, f"{field}_MiB") * kb.MIB
                if kbytes > 0.05 * epoch:
                    expect(abs(b - kbytes) <= 0.02 * kbytes, f"{g} {name} {field}: {b:.0f} B, kernel {kbytes}")
                else:
                    expect(abs(b - kbytes) <= 0.01 * epoch, f"{g} {name} {field}: {b:.0f} B, kernel {kbytes}")
    return summ


@test
def range_10ms_matches_the_kernel():
    summ = real_ranges_match_the_kernel("range-10ms", ["lo", "total"])
    expect(list(summ["group"]) == ["lo", "total"] and list(summ["samples"]) == [378, 378], f"{summ}")
    expect(set(summ["host"]) == {"vm"}, "host")


@test
def range_1ms_matches_the_kernel():
    summ = real_ranges_match_the_kernel("range-1ms", ["lo", "total"])
    expect(list(summ["samples"]) == [2861, 2861], f"{list(summ['samples'])}")


@test
def multi_hotplug_fake_counters():
    t = load("multi-hotplug")
    summ, _, _ = kb.analyze_tables("multi-hotplug.nsys-rep", t, None)
    expect(list(summ["group"]) == ["fa0", "lo", "total", "fb0"], f"{list(summ['group'])}")
    row = {r.group: r for r in summ.itertuples()}
    # fa0 was there from the start: all its bytes are in the report. fb0 appeared during the run
    # and got its group at the next rescan: its mean rate is the writer's (20e6 B/s rx, 40e6 tx).
    fake = {name: (rx, tx) for name, rx, tx in kernel("multi-hotplug", "fake")}
    for field, want in zip(("rx", "tx"), fake["fa0"]):
        b = getattr(row["fa0"], f"{field}_MiB") * kb.MIB
        expect(abs(b - want) <= 0.02 * want, f"fa0 {field}: {b:.0f} B, fake counter {want}")
    for field, want in (("rx", 20e6), ("tx", 40e6)):
        rate = getattr(row["fb0"], f"{field}_mean") * kb.MIB
        expect(abs(rate - want) <= 0.02 * want, f"fb0 {field}: {rate:.0f} B/s, writer {want:.0f}")
    expect(fake["fb0"][0] > row["fb0"].rx_MiB * kb.MIB, "fb0 moved bytes before its first sample")
    na = int(t["NVTX_COUNTER_SAMPLES_1_1"]["rx"].isna().sum())
    expect(na > 0 and row["fa0"].samples == 385 - na, f"fa0: {row['fa0'].samples} valued, {na} without a value")
    real_ranges_match_the_kernel("multi-hotplug", ["lo"])


@test
def default_selection_report():
    summ, rng, _ = kb.analyze_tables("default.nsys-rep", load("default"), "epoch")
    expect(list(summ["group"]) == ["eth0", "total"] and list(summ["samples"]) == [142, 142], f"{summ}")
    expect(list(rng["range"].unique()) == ["epoch"] and list(rng["count"]) == [2, 2], f"{rng}")


@test
def heat_map_of_a_real_report():
    t = load("range-10ms")
    dur = int(t["ANALYSIS_DETAILS"]["duration"].iloc[0])
    size = math.ceil(dur / 30)
    edges = [size * i for i in range(31)]
    summ, _, heat = kb.analyze_tables("range-10ms", t, None, edges, 0)
    lo = heat[heat["group"] == "lo"]
    expect(len(lo) <= 30 and lo["Duration"].is_monotonic_increasing, f"{len(lo)} bins")
    s = kb.windows(t["NVTX_COUNTER_SAMPLES_1_1"])
    first = s[(s["timestamp"] >= 0) & (s["timestamp"] <= size)]
    expect(near(float(lo["rx"].iloc[0]), float(first["rx"].mean())), "bin 0 is the mean of its samples")
    expect(float(heat["rx"].max()) <= float(summ["rx_max"].max()), "no bin above the max")


# ---- the recipe's files ---------------------------------------------------------------------

RECIPE = os.path.join(SRCDIR, "recipes", "kvikio_nic_bandwidth")


@test
def recipe_folder_is_what_the_framework_loads():
    import json
    meta = json.load(open(os.path.join(RECIPE, "metadata.json")))
    expect(set(meta) >= {"module_name", "display_name", "description"}, f"metadata keys {sorted(meta)}")
    module = os.path.join(RECIPE, meta["module_name"] + ".py")
    expect(os.path.exists(module), f"module_name {meta['module_name']}: no {module}")
    source = open(module).read()
    compile(source, module, "exec")
    expect("class KvikioNicBandwidth(recipe.Recipe)" in source, "one Recipe subclass")
    nb = json.load(open(os.path.join(RECIPE, "heatmap.ipynb")))
    text = "".join("".join(c["source"]) for c in nb["cells"])
    for out in ("summary", "ranges", "heatmap", "files"):
        expect(f'"{out}.parquet"' in text, f"the notebook does not read {out}.parquet")
        expect(f'"{out}")' in source, f"the recipe does not write {out}")
    expect("REPLACE_BIN" in text and '"REPLACE_BIN"' in source, "the bins placeholder")


@test
def column_names_are_kvikio_nic_reports():
    expect(",".join(kb.SUMMARY_COLUMNS) == "report,host,group,samples,seconds,rx_MiB,tx_MiB,rx_mean,"
           "rx_p50,rx_p95,rx_max,tx_mean,tx_p50,tx_p95,tx_max", "summary columns")
    expect(",".join(kb.RANGE_COLUMNS) == "report,host,range,count,seconds,group,rx_MiB,tx_MiB,"
           "rx_mean,tx_mean", "range columns")


def main():
    """Run every test point; TAP."""
    print(f"1..{len(TESTS)}")
    failed = 0
    for i, fn in enumerate(TESTS, start=1):
        name = fn.__name__.replace("_", " ")
        try:
            fn()
            print(f"ok {i} - {name}")
        except Exception as e:  # noqa: BLE001 - any error fails the point
            failed += 1
            print(f"not ok {i} - {name}")
            for line in (str(e) or traceback.format_exc()).splitlines():
                print(f"# {line}")
            if not isinstance(e, AssertionError):
                for line in traceback.format_exc().splitlines():
                    print(f"# {line}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
