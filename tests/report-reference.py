#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""report-reference.py: the definitions of kvikio_nic_report(1), written again in plain Python
(sqlite3 module, no numpy) as a second, independent implementation that tests compare the C
program with. Prints the CSV of `kvikio_nic_report --format=csv [--ranges]` for one export.

    report-reference.py [--ranges] EXPORT.sqlite
"""
import math
import sqlite3
import sys

HEAD = 1000  # the first sample's window: median of the group's first HEAD intervals


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
        fields = dict((name, idx) for idx, name in db.execute(
            "SELECT f.fieldIdx, s.value FROM GENERIC_EVENT_TYPE_FIELDS f "
            "LEFT JOIN StringIds s ON s.id = f.fieldNameId WHERE f.typeId = ?", (type_id,)))
        if sorted(fields) != ["rx", "tx"]:
            continue
        name = schema[15:] if schema.startswith("NIC bandwidth: ") else "#%d" % (len(out) + 1)
        out.append((type_id, name, fields["rx"], fields["tx"]))
    return out


def samples(db, type_id, rx_idx, tx_idx):
    """(t, rx, tx) by time; rx/tx None when not valid."""
    rows = db.execute(
        "SELECT e.timestamp, (SELECT doubleVal FROM GENERIC_EVENT_DATA d WHERE d.genericEventId = "
        "e.genericEventId AND d.fieldIdx = ?2), (SELECT doubleVal FROM GENERIC_EVENT_DATA d WHERE "
        "d.genericEventId = e.genericEventId AND d.fieldIdx = ?3) FROM GENERIC_EVENTS e "
        "WHERE e.typeId = ?1 ORDER BY e.timestamp, e.genericEventId", (type_id, rx_idx, tx_idx))
    return [(t, rx, tx) if valid(rx) and valid(tx) else (t, None, None) for t, rx, tx in rows]


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


def num(v):
    return "" if v is None or (isinstance(v, float) and math.isnan(v)) else "%.15g" % v


def main(argv):
    want_ranges = argv[1] == "--ranges"
    path = argv[-1]
    db = sqlite3.connect("file:%s?mode=ro" % path, uri=True)
    host = (db.execute("SELECT value FROM TARGET_INFO_SYSTEM_ENV WHERE name = 'Hostname'").fetchone()
            or [""])[0]
    gs = groups(db)
    if not want_ranges:
        print("report,host,group,samples,seconds,rx_MiB,tx_MiB,rx_mean,rx_p50,rx_p95,rx_max,"
              "tx_mean,tx_p50,tx_p95,tx_max")
    rs = ranges(db) if want_ranges else []
    names = sorted(set(n for _, _, n in rs), key=lambda n: n.encode())
    per = {}
    for type_id, name, rx_idx, tx_idx in gs:
        s = samples(db, type_id, rx_idx, tx_idx)
        w = windows(s)
        ok = [(x, (a, b)) for x, (a, b) in zip(s, w) if x[1] is not None]
        covered = sum(b - a for _, (a, b) in ok)
        mib = [sum(x[f] * (b - a) for x, (a, b) in ok) / 1e9 for f in (1, 2)]
        row = [path, host, name, str(len(ok)), num(covered / 1e9), num(mib[0]), num(mib[1])]
        for f in (1, 2):
            v = [x[f] for x, _ in ok]
            mean = mib[f - 1] * 1e9 / covered if v and covered > 0 else None
            row += [num(mean)] + ([num(percentile(v, 50)), num(percentile(v, 95)), num(max(v))]
                                  if v else ["", "", ""])
        if not want_ranges:
            print(",".join(row))
        for rn in names:
            inside = [(ra, rb) for ra, rb, n in rs if n == rn]
            got = [sum(x[f] * max(0, min(b, rb) - max(a, ra)) for x, (a, b) in ok
                       for ra, rb in inside) / 1e9 for f in (1, 2)]
            per.setdefault(rn, []).append((name, got, len(inside), sum(rb - ra for ra, rb in inside) / 1e9))
    if want_ranges:
        print("report,host,range,count,seconds,group,rx_MiB,tx_MiB,rx_mean,tx_mean")
        for rn in names:
            for name, got, count, secs in per[rn]:
                means = [g / secs if secs > 0 else None for g in got]
                print(",".join([path, host, rn, str(count), num(secs), name, num(got[0]), num(got[1]),
                                num(means[0]), num(means[1])]))


if __name__ == "__main__":
    main(sys.argv)
