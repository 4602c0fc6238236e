# SPDX-License-Identifier: Apache-2.0
"""kn_bandwidth: the numbers of the kvikio_nic_bandwidth recipe, from plain dataframes.

No nsys here: every function takes and returns pandas dataframes (or numpy arrays), so the
math is tested in `make check` without the recipe framework. The definitions are those of
kvikio_nic_report(1), so both tools give the same numbers for the same report:

- A sample covers the time since the previous sample of its group; the first one covers one
  median interval: the median of the group's first min(n - 1, 1000) gaps between consecutive
  samples (samples without a value count: they have times; the mean of the two middle ones when
  their number is even; 0 with one sample).  The plugin's first sample (since 0.2) is its
  baseline's, without a value, so its first rate covers exactly the time since the baseline.
  Rates are MiB/s, timestamps ns.
- A sample has a value when rx and tx are both finite and not subnormal (a parquetdir export
  gives NaN for "no value"; nsys 2025.3.1 exports nvtxCounterSampleNoValue as 9.9e-324).
  Samples without a value count for neither bytes nor statistics.
- rx_MiB = sum of rx * covered seconds over valued samples (tx alike); samples = valued
  samples; seconds = the time they cover; mean = MiB / seconds; p50, p95 = percentiles of the
  valued rates, linear between the closest ranks (numpy's default, R's type 7); max.
- A range [start, end] gets, per group, rate * |window intersected with the range| from every
  valued sample; nested or overlapping ranges each count on their own. Per range name: count,
  seconds (sum of durations), rx_MiB, tx_MiB, mean = MiB / seconds.
"""

import math
import re

import numpy as np
import pandas as pd

DOMAIN_NAME = "KvikIO NIC"
SCHEMA_SHARED = "NIC bandwidth"
SCHEMA_PREFIX = "NIC bandwidth: "
# ENUM_NSYS_EVENT_TYPE ids of nsys 2025.3.1, used when the export lacks that table.
EVENT_IDS = {"NvtxPushPopRange": 59, "NvtxStartEndRange": 60, "NvtxDomainCreate": 75}
MIB = 1048576.0
HEAD_INTERVALS = 1000  # the first sample's window: the median of this many first gaps
NS = 1e9

SUMMARY_COLUMNS = [
    "report", "host", "group", "samples", "seconds", "rx_MiB", "tx_MiB",
    "rx_mean", "rx_p50", "rx_p95", "rx_max", "tx_mean", "tx_p50", "tx_p95", "tx_max",
]
RANGE_COLUMNS = [
    "report", "host", "range", "count", "seconds", "group", "rx_MiB", "tx_MiB",
    "rx_mean", "tx_mean",
]
HEAT_COLUMNS = ["report", "host", "group", "Duration", "rx", "tx"]
SUM_REPORT = "(sum)"
SMALLEST_NORMAL = 2.2250738585072014e-308


def event_type_ids(enum_df):
    """Map the event type names this module needs to their ids (nsys 2025.3.1's by default)."""
    ids = dict(EVENT_IDS)
    if enum_df is not None and not enum_df.empty:
        for name in ids:
            hit = enum_df.loc[enum_df["name"] == name, "id"]
            if len(hit):
                ids[name] = int(hit.iloc[0])
    return ids


def event_texts(events_df, strings_df=None):
    """The text of every NVTX_EVENTS row: its own text, else its textId looked up in StringIds."""
    text = events_df["text"] if "text" in events_df else pd.Series(None, index=events_df.index)
    text = text.astype(object)
    if strings_df is not None and "textId" in events_df and not strings_df.empty:
        lookup = dict(zip(strings_df["id"], strings_df["value"]))
        missing = text.isna() & events_df["textId"].notna()
        text = text.where(~missing, events_df["textId"].map(lookup))
    return text


def kvikio_domains(events_df, ids, strings_df=None):
    """The domainIds created with the name 'KvikIO NIC' (NVTX_EVENTS domain-create rows)."""
    if events_df is None or events_df.empty:
        return set()
    creates = events_df["eventType"] == ids["NvtxDomainCreate"]
    text = event_texts(events_df[creates], strings_df)
    return set(int(d) for d in events_df.loc[creates, "domainId"][text == DOMAIN_NAME])


def select_groups(groups_df, schemas_df, domains):
    """The KvikIO NIC counter groups: [domainId, counterGroupId, group], in registration order.

    A group counts when it lives in one of domains and its payload schema is named
    'NIC bandwidth: <group>' (this plugin) and is then called <group>, or 'NIC bandwidth' (one
    schema shared by every group: KvikIO's plugin, kvikio-nic before 0.2.0) and is then called
    '#k', k its place among the selected groups from 1: kvikio_nic_report's names, which has only
    the schema to go by in a SQLite export (NVTX_COUNTER_GROUPS.name is not used).
    """
    cols = ["domainId", "counterGroupId", "group"]
    if groups_df is None or groups_df.empty or not domains:
        return pd.DataFrame(columns=cols)
    g = groups_df[groups_df["domainId"].isin(list(domains))]
    s = schemas_df[["domainId", "schemaId", "name"]].rename(columns={"name": "schema"})
    g = g.merge(s, on=["domainId", "schemaId"], how="inner")
    schema = g["schema"].fillna("")
    ours = (schema == SCHEMA_SHARED) | (schema.str.startswith(SCHEMA_PREFIX)
                                        & (schema.str.len() > len(SCHEMA_PREFIX)))
    g = g[ours].sort_values(["domainId", "counterGroupId"], kind="stable").reset_index(drop=True)
    names = []
    for k, row in enumerate(g.itertuples(index=False), start=1):
        if row.schema.startswith(SCHEMA_PREFIX):
            names.append(row.schema[len(SCHEMA_PREFIX):])
        else:
            names.append(f"#{k}")
    g = g.assign(group=names)
    return g[cols].astype({"domainId": "int64", "counterGroupId": "int64"})


def samples_table_name(domain_id, group_id):
    """The parquetdir table that holds one counter group's samples."""
    return f"NVTX_COUNTER_SAMPLES_{int(domain_id)}_{int(group_id)}"


def host_name(env_df):
    """TARGET_INFO_SYSTEM_ENV's Hostname, '' when absent."""
    if env_df is None or env_df.empty:
        return ""
    hit = env_df.loc[env_df["name"] == "Hostname", "value"]
    return str(hit.iloc[0]) if len(hit) and isinstance(hit.iloc[0], str) else ""


def valued(rx, tx):
    """Whether each sample has a value: rx and tx both finite and not subnormal."""
    rx = np.asarray(rx, dtype=float)
    tx = np.asarray(tx, dtype=float)

    def ok(v):
        a = np.abs(v)
        return np.isfinite(v) & ((a == 0) | (a >= SMALLEST_NORMAL))

    return ok(rx) & ok(tx)


def median_interval(ts):
    """The median of the first HEAD_INTERVALS gaps between consecutive times (ns, sorted); 0 with
    fewer than two times."""
    ts = np.asarray(ts, dtype=np.int64)[: HEAD_INTERVALS + 1]
    if ts.size < 2:
        return 0.0
    return float(np.median(np.diff(ts)))


def windows(samples):
    """One group's samples sorted by time, with the window each covers.

    Returns a dataframe: timestamp, rx, tx, a (window start, ns, float), b (window end),
    valued (bool). Window i is (t[i-1], t[i]]; the first is (t[0] - median interval, t[0]].
    """
    s = samples[["timestamp", "rx", "tx"]].sort_values("timestamp", kind="stable")
    s = s.reset_index(drop=True)
    t = s["timestamp"].to_numpy(dtype=np.int64)
    a = np.empty(t.size, dtype=float)
    if t.size:
        a[0] = float(t[0]) - median_interval(t)
        a[1:] = t[:-1]
    s = s.assign(a=a, b=t.astype(float), valued=valued(s["rx"], s["tx"]))
    return s


def percentile(values, p):
    """Percentile p (0..100) of values, linear between the closest ranks; NaN when empty."""
    x = np.sort(np.asarray(values, dtype=float))
    n = x.size
    if n == 0:
        return math.nan
    h = (n - 1) * p / 100.0
    lo = int(math.floor(h))
    if lo >= n - 1:
        return float(x[n - 1])
    return float(x[lo] + (h - lo) * (x[lo + 1] - x[lo]))


def field_stats(rate, dt_ns, prefix):
    """MiB, mean, p50, p95, max of one field's valued rates over windows dt_ns."""
    mib = float(np.sum(rate * dt_ns)) / NS if rate.size else 0.0
    seconds = float(np.sum(dt_ns)) / NS if rate.size else 0.0
    return {
        f"{prefix}_MiB": mib,
        f"{prefix}_mean": mib / seconds if seconds > 0 else math.nan,
        f"{prefix}_p50": percentile(rate, 50),
        f"{prefix}_p95": percentile(rate, 95),
        f"{prefix}_max": float(np.max(rate)) if rate.size else math.nan,
    }


def group_summary(win):
    """One group's summary row (no report/host/group) from windows()."""
    v = win[win["valued"]]
    dt = (v["b"] - v["a"]).to_numpy(dtype=float)
    row = {"samples": int(len(v)), "seconds": float(np.sum(dt)) / NS if len(v) else 0.0}
    row.update(field_stats(v["rx"].to_numpy(dtype=float), dt, "rx"))
    row.update(field_stats(v["tx"].to_numpy(dtype=float), dt, "tx"))
    return row


def ranges_of(events_df, ids, pattern=None, strings_df=None):
    """The ended push/pop and start/end ranges whose whole name matches pattern: name, start, end."""
    cols = ["name", "start", "end"]
    if events_df is None or events_df.empty:
        return pd.DataFrame(columns=cols)
    kinds = [ids["NvtxPushPopRange"], ids["NvtxStartEndRange"]]
    e = events_df[events_df["eventType"].isin(kinds)]
    e = e.assign(name=event_texts(e, strings_df))
    e = e[e["start"].notna() & e["end"].notna() & e["name"].notna()]
    e = e[e["end"] >= e["start"]]
    if pattern is not None:
        rx = re.compile(pattern)
        e = e[[rx.fullmatch(n) is not None for n in e["name"]]]
    return e[cols].astype({"start": "int64", "end": "int64"}).reset_index(drop=True)


def cumulative(win, field):
    """Boundaries and the integral of a field's rate at each (MiB/s * ns), rate 0 without a value."""
    bounds = np.concatenate([win["a"].to_numpy()[:1], win["b"].to_numpy()])
    rate = np.where(win["valued"].to_numpy(), win[field].to_numpy(dtype=float), 0.0)
    rate = np.nan_to_num(rate, nan=0.0)
    steps = rate * np.diff(bounds)
    return bounds, rate, np.concatenate([[0.0], np.cumsum(steps)])


def integral_at(bounds, rate, cum, t):
    """The integral of the piecewise-constant rate from the first boundary up to times t."""
    t = np.asarray(t, dtype=float)
    if bounds.size < 2:
        return np.zeros_like(t)
    tc = np.clip(t, bounds[0], bounds[-1])
    k = np.clip(np.searchsorted(bounds, tc, side="right") - 1, 0, rate.size - 1)
    return cum[k] + rate[k] * (tc - bounds[k])


def range_bytes(win, ranges):
    """Per range (rows of ranges_of()): the MiB of rx and tx moved inside it, as two arrays."""
    out = []
    for field in ("rx", "tx"):
        bounds, rate, cum = cumulative(win, field)
        lo = integral_at(bounds, rate, cum, ranges["start"].to_numpy(dtype=float))
        hi = integral_at(bounds, rate, cum, ranges["end"].to_numpy(dtype=float))
        out.append((hi - lo) / NS)
    return out[0], out[1]


def range_rows(win, ranges, group):
    """The range rows of one group (no report/host): per range name, in byte order of the name."""
    if ranges.empty:
        return []
    rx, tx = range_bytes(win, ranges)
    df = ranges.assign(rx=rx, tx=tx, dur=(ranges["end"] - ranges["start"]) / NS)
    rows = []
    for name in sorted(df["name"].unique(), key=lambda n: n.encode()):
        d = df[df["name"] == name]
        sec = float(d["dur"].sum())
        rmib, tmib = float(d["rx"].sum()), float(d["tx"].sum())
        rows.append({
            "range": name, "count": int(len(d)), "seconds": sec, "group": group,
            "rx_MiB": rmib, "tx_MiB": tmib,
            "rx_mean": rmib / sec if sec > 0 else math.nan,
            "tx_mean": tmib / sec if sec > 0 else math.nan,
        })
    return rows


def heat_rows(win, edges, offset):
    """Mean valued rx and tx per time bin (edges: ns, aligned by offset); rows Duration, rx, tx."""
    v = win[win["valued"]]
    t = v["timestamp"].to_numpy(dtype=np.int64) + int(offset)
    cols = ["Duration", "rx", "tx"]
    if len(edges) < 2 or t.size == 0:
        return pd.DataFrame(columns=cols)
    binned = pd.cut(t, list(edges), labels=list(edges[:-1]), include_lowest=True)
    df = pd.DataFrame({"Duration": binned, "rx": v["rx"].to_numpy(), "tx": v["tx"].to_numpy()})
    df = df.dropna(subset=["Duration"])
    df = df.groupby("Duration", observed=True)[["rx", "tx"]].mean().reset_index()
    return df.astype({"Duration": "int64"})[cols]


def analyze(report, host, groups, samples, ranges=None, edges=None, offset=0):
    """One report's tables: (summary, ranges, heat) dataframes.

    groups: select_groups(); samples: {(domainId, counterGroupId): dataframe timestamp, rx, tx};
    ranges: ranges_of() or None (no range table); edges: heat map bin edges (ns) or None.
    """
    summ, rng, heat = [], [], []
    for g in groups.itertuples(index=False):
        s = samples.get((int(g.domainId), int(g.counterGroupId)))
        if s is None:
            s = pd.DataFrame({"timestamp": [], "rx": [], "tx": []})
        win = windows(s)
        summ.append({"report": report, "host": host, "group": g.group, **group_summary(win)})
        if ranges is not None:
            rng.extend({"report": report, "host": host, **r} for r in range_rows(win, ranges, g.group))
        if edges is not None:
            h = heat_rows(win, edges, offset)
            heat.append(h.assign(report=report, host=host, group=g.group))
    summary = pd.DataFrame(summ, columns=SUMMARY_COLUMNS)
    rtab = pd.DataFrame(rng, columns=RANGE_COLUMNS)
    if not rtab.empty:
        order = {g: i for i, g in enumerate(groups["group"])}
        rtab = rtab.assign(_n=rtab["range"].map(lambda n: n.encode()), _g=rtab["group"].map(order))
        rtab = rtab.sort_values(["_n", "_g"], kind="stable").drop(columns=["_n", "_g"])
        rtab = rtab.reset_index(drop=True)
    htab = pd.concat(heat, ignore_index=True)[HEAT_COLUMNS] if heat else pd.DataFrame(columns=HEAT_COLUMNS)
    return summary, rtab, htab


def analyze_tables(report, tables, pattern=None, edges=None, offset=0):
    """analyze() from the raw tables of one parquetdir export (dict: table name -> dataframe).

    Needs NVTX_COUNTER_GROUPS, NVTX_PAYLOAD_SCHEMAS, NVTX_EVENTS and the groups' samples tables;
    ENUM_NSYS_EVENT_TYPE, StringIds and TARGET_INFO_SYSTEM_ENV when present. pattern: None for
    no range table, else the whole-name regex of the ranges.
    """
    ids = event_type_ids(tables.get("ENUM_NSYS_EVENT_TYPE"))
    strings = tables.get("StringIds")
    events = tables.get("NVTX_EVENTS")
    groups = select_groups(tables.get("NVTX_COUNTER_GROUPS"), tables.get("NVTX_PAYLOAD_SCHEMAS"),
                           kvikio_domains(events, ids, strings))
    samples = {}
    for g in groups.itertuples(index=False):
        name = samples_table_name(g.domainId, g.counterGroupId)
        if name in tables:
            samples[(int(g.domainId), int(g.counterGroupId))] = tables[name]
    ranges = ranges_of(events, ids, pattern, strings) if pattern is not None else None
    return analyze(report, host_name(tables.get("TARGET_INFO_SYSTEM_ENV")), groups, samples,
                   ranges, edges, offset)


def add_defined(values):
    """Sum of values where NaN means none: NaN only when every value is NaN (or there is none)."""
    v = [x for x in values if not math.isnan(x)]
    return float(sum(v)) if v else math.nan


def summary_sums(summary):
    """kvikio_nic_report --sum rows of a combined summary: per group name, in order of first
    appearance, samples, seconds and MiB summed, means summed, percentiles and maxima NaN."""
    rows = []
    for group in summary["group"].drop_duplicates():
        d = summary[summary["group"] == group]
        row = {"report": SUM_REPORT, "host": "", "group": group, "samples": int(d["samples"].sum())}
        for col in ("seconds", "rx_MiB", "tx_MiB"):
            row[col] = float(sum(d[col]))
        for f in ("rx", "tx"):
            row[f"{f}_mean"] = add_defined(d[f"{f}_mean"])
            row.update({f"{f}_p50": math.nan, f"{f}_p95": math.nan, f"{f}_max": math.nan})
        rows.append(row)
    return pd.DataFrame(rows, columns=SUMMARY_COLUMNS)


def range_sums(ranges):
    """kvikio_nic_report --sum rows of a combined range table: per (range, group), in order of
    first appearance, count, seconds and MiB summed, means summed."""
    rows = []
    for key in ranges[["range", "group"]].drop_duplicates().itertuples(index=False):
        d = ranges[(ranges["range"] == key.range) & (ranges["group"] == key.group)]
        row = {"report": SUM_REPORT, "host": "", "range": key.range, "count": int(d["count"].sum()),
               "group": key.group}
        for col in ("seconds", "rx_MiB", "tx_MiB"):
            row[col] = float(sum(d[col]))
        row["rx_mean"] = add_defined(d["rx_mean"])
        row["tx_mean"] = add_defined(d["tx_mean"])
        rows.append(row)
    return pd.DataFrame(rows, columns=RANGE_COLUMNS)
