#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""report-reference.py: the definitions of kvikio_nic_report(1), written again in plain Python
(sqlite3 module, no numpy) as a second, independent implementation that tests compare the C
program with, the extra fields of kvikio_nic -m included. Prints the CSV of
`kvikio_nic_report --format=csv [--ranges]` for one export.

    report-reference.py [--ranges] EXPORT.sqlite
    report-reference.py --same A.csv B.csv   exit 0 when the two CSV files have the same rows,
                                            text equal, numbers within 1e-9 relative
"""
import math
import sqlite3
import sys

HEAD = 1000  # the first sample's window: median of the group's first HEAD intervals
# kvikio_nic -m's extra fields, per metric in the report's column order (rx field, tx field)
METRICS = [("packets", "rx_packets", "tx_packets"), ("errors", "rx_errors", "tx_errors"),
           ("drops", "rx_dropped", "tx_dropped"), ("util", "rx_util", "tx_util")]
EXTRA = [f for _, rx, tx in METRICS for f in (rx, tx)]


def percentile(values, p):
    """Linear interpolation between closest ranks (numpy's default, R type 7)."""
    x = sorted(values)
    h = (len(x) - 1) * p / 100
    k = math.floor(h)
    if k >= len(x) - 1:
        return x[-1]
    return x[k] + (h - k) * (x[k + 1] - x[k])


def median(values):
    x = sorted(values)
    n = len(x)
    return x[n // 2] if n % 2 else (x[n // 2 - 1] + x[n // 2]) / 2


def valid(v):
    """Present, finite, not subnormal."""
    return v is not None and math.isfinite(v) and (v == 0 or abs(v) >= sys.float_info.min)


def groups(db):
    rows = db.execute(
        "SELECT t.typeId, n.value FROM GENERIC_EVENT_TYPES t JOIN StringIds n ON n.id = t.nameId "
        "JOIN GENERIC_EVENT_SOURCES s ON s.sourceId = t.sourceId JOIN StringIds sn ON sn.id = s.nameId "
        "WHERE sn.value = 'GenericCounters' ORDER BY t.typeId").fetchall()
    out = []
    for type_id, schema in rows:
        if schema != "NIC bandwidth" and not (schema.startswith("NIC bandwidth: ") and len(schema) > 15):
            continue
        named = {}
        for idx, fname in db.execute(
                "SELECT f.fieldIdx, s.value FROM GENERIC_EVENT_TYPE_FIELDS f "
                "LEFT JOIN StringIds s ON s.id = f.fieldNameId WHERE f.typeId = ?", (type_id,)):
            named.setdefault(fname, []).append(idx)
        if len(named.get("rx", [])) != 1 or len(named.get("tx", [])) != 1 or named["rx"] == named["tx"]:
            continue
        # rx, tx, then each extra field named once whose fieldIdx no earlier field has
        fields = {}
        for f in ["rx", "tx"] + EXTRA:
            if len(named.get(f, [])) == 1 and named[f][0] not in fields.values():
                fields[f] = named[f][0]
        name = schema[15:] if schema.startswith("NIC bandwidth: ") else "#%d" % (len(out) + 1)
        out.append((type_id, name, fields))
    return out


def samples(db, type_id, fields):
    """(t, {field: value}) by time; a value None when not valid (rx and tx: unless both are)."""
    names = list(fields)
    cols = ", ".join("(SELECT doubleVal FROM GENERIC_EVENT_DATA d WHERE d.genericEventId = "
                     "e.genericEventId AND d.fieldIdx = %d)" % fields[f] for f in names)
    out = []
    for row in db.execute("SELECT e.timestamp, %s FROM GENERIC_EVENTS e WHERE e.typeId = ? "
                          "ORDER BY e.timestamp, e.genericEventId" % cols, (type_id,)):
        v = dict((f, x if valid(x) else None) for f, x in zip(names, row[1:]))
        if v["rx"] is None or v["tx"] is None:
            v["rx"] = v["tx"] = None
        out.append((row[0], v))
    return out


def windows(s):
    """Per sample its window (a, b]: since the previous sample; the first, one median interval."""
    head = [s[i][0] - s[i - 1][0] for i in range(1, min(len(s), HEAD + 1))]
    m = median(head) if head else 0
    return [((s[i - 1][0] if i else s[0][0] - m), s[i][0]) for i in range(len(s))]


def ranges(db):
    text = "COALESCE(e.text, s.value)"
    rows = db.execute(
        "SELECT e.start, e.end, %s FROM NVTX_EVENTS e LEFT JOIN StringIds s ON s.id = e.textId "
        "WHERE e.eventType IN (SELECT id FROM ENUM_NSYS_EVENT_TYPE WHERE name IN "
        "('NvtxPushPopRange', 'NvtxStartEndRange')) AND e.end IS NOT NULL AND e.end >= e.start" % text)
    return [(a, b, n) for a, b, n in rows if n is not None]


def extra_columns(present, want_ranges):
    """The column names of the extra metrics that some group has."""
    cols = []
    for metric, rx, tx in METRICS:
        if metric not in present:
            continue
        if metric != "util":
            cols += [rx, tx, rx + "_mean", tx + "_mean"]
        elif want_ranges:
            cols += [rx + "_mean", tx + "_mean"]
        else:
            cols += [f + s for f in (rx, tx) for s in ("_mean", "_p50", "_p95", "_max")]
    return cols


def integral(s, w, f, lo=None, hi=None):
    """Of field f: the sum of value * time of the windows with a value (inside [lo, hi]), and that
    time, in s."""
    total = cover = 0
    for (_, v), (a, b) in zip(s, w):
        if v.get(f) is None:
            continue
        d = b - a if lo is None else max(0, min(b, hi) - max(a, lo))
        total += v[f] * d
        cover += d
    return total / 1e9, cover / 1e9


def extra_summary(s, w, fields, present):
    """The summary cells of the extra metrics (empty where the group lacks the field)."""
    cells = []
    for metric, rx, tx in METRICS:
        if metric not in present:
            continue
        got = [integral(s, w, f) if f in fields else None for f in (rx, tx)]
        if metric != "util":
            cells += [num(g[0]) if g else "" for g in got]
            cells += [num(g[0] / g[1]) if g and g[1] > 0 else "" for g in got]
            continue
        for f, g in zip((rx, tx), got):
            v = [x[f] for _, x in s if x.get(f) is not None]
            cells += [num(g[0] / g[1]) if g and g[1] > 0 else ""]
            cells += [num(percentile(v, p)) for p in (50, 95, 100)] if v else ["", "", ""]
    return cells


def extra_range(s, w, fields, present, inside, secs):
    """The --ranges cells of the extra metrics for the ranges inside, secs long in all."""
    cells = []
    for metric, rx, tx in METRICS:
        if metric not in present:
            continue
        got = []
        for f in (rx, tx):
            sums = [integral(s, w, f, ra, rb) for ra, rb in inside]
            got.append((sum(x for x, _ in sums), sum(c for _, c in sums)) if f in fields else None)
        if metric != "util":
            cells += [num(g[0]) if g else "" for g in got]
            cells += [num(g[0] / secs) if g and secs > 0 else "" for g in got]
        else:
            cells += [num(g[0] / g[1]) if g and g[1] > 0 else "" for g in got]
    return cells


def num(v):
    return "" if v is None or (isinstance(v, float) and math.isnan(v)) else "%.15g" % v


def same(a_path, b_path):
    """0 when the CSV files agree (text equal, numbers within 1e-9 relative), else 1 with the
    first difference on stdout."""
    import csv
    a, b = (list(csv.reader(open(f))) for f in (a_path, b_path))
    if len(a) != len(b):
        return print("%d rows against %d" % (len(a), len(b))) or 1
    for ra, rb in zip(a, b):
        if len(ra) != len(rb):
            return print("%d columns against %d in %s" % (len(ra), len(rb), ra)) or 1
        for x, y in zip(ra, rb):
            try:
                fx, fy = float(x), float(y)
            except ValueError:
                if x != y:
                    return print("%r != %r in %s" % (x, y, ra)) or 1
                continue
            if abs(fx - fy) > 1e-9 * max(abs(fx), abs(fy)) + 1e-12:
                return print("%r != %r in %s" % (x, y, ra)) or 1
    return 0


def main(argv):
    if argv[1] == "--same":
        sys.exit(same(argv[2], argv[3]))
    want_ranges = argv[1] == "--ranges"
    path = argv[-1]
    db = sqlite3.connect("file:%s?mode=ro" % path, uri=True)
    host = (db.execute("SELECT value FROM TARGET_INFO_SYSTEM_ENV WHERE name = 'Hostname'").fetchone()
            or [""])[0]
    gs = groups(db)
    present = set(m for m, rx, tx in METRICS for _, _, fields in gs if rx in fields or tx in fields)
    extra_head = "".join("," + c for c in extra_columns(present, want_ranges))
    if not want_ranges:
        print("report,host,group,samples,seconds,rx_MiB,tx_MiB,rx_mean,rx_p50,rx_p95,rx_max,"
              "tx_mean,tx_p50,tx_p95,tx_max" + extra_head)
    rs = ranges(db) if want_ranges else []
    names = sorted(set(n for _, _, n in rs), key=lambda n: n.encode())
    per = {}
    for type_id, name, fields in gs:
        s = samples(db, type_id, fields)
        w = windows(s)
        ok = [((t, v["rx"], v["tx"]), (a, b)) for (t, v), (a, b) in zip(s, w) if v["rx"] is not None]
        covered = sum(b - a for _, (a, b) in ok)
        mib = [sum(x[f] * (b - a) for x, (a, b) in ok) / 1e9 for f in (1, 2)]
        row = [path, host, name, str(len(ok)), num(covered / 1e9), num(mib[0]), num(mib[1])]
        for f in (1, 2):
            v = [x[f] for x, _ in ok]
            mean = mib[f - 1] * 1e9 / covered if v and covered > 0 else None
            row += [num(mean)] + ([num(percentile(v, 50)), num(percentile(v, 95)), num(max(v))]
                                  if v else ["", "", ""])
        row += extra_summary(s, w, fields, present)
        if not want_ranges:
            print(",".join(row))
        for rn in names:
            inside = [(ra, rb) for ra, rb, n in rs if n == rn]
            got = [sum(x[f] * max(0, min(b, rb) - max(a, ra)) for x, (a, b) in ok
                       for ra, rb in inside) / 1e9 for f in (1, 2)]
            secs = sum(rb - ra for ra, rb in inside) / 1e9
            per.setdefault(rn, []).append((name, got, len(inside), secs,
                                           extra_range(s, w, fields, present, inside, secs)))
    if want_ranges:
        print("report,host,range,count,seconds,group,rx_MiB,tx_MiB,rx_mean,tx_mean" + extra_head)
        for rn in names:
            for name, got, count, secs, extra in per[rn]:
                means = [g / secs if secs > 0 else None for g in got]
                print(",".join([path, host, rn, str(count), num(secs), name, num(got[0]), num(got[1]),
                                num(means[0]), num(means[1])] + extra))


if __name__ == "__main__":
    main(sys.argv)
