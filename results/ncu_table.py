#!/usr/bin/env python3
"""Tabulates gpu/ncu_run.sh's folder: per (pipeline, size, schedule), the kernels Nsight Compute
saw in one call and their DRAM bytes, beside the ledger from the same run's `fuselab bench --once
--json` record: kernels per call, and the fewest bytes a call must move (min bytes: each input
read once, each output written once), alone and plus each intermediate written and read once.

    python3 results/ncu_table.py OUTDIR > ncu.md

report.py imports load() to fill h200.json's dram_bytes.
"""
import csv
import glob
import json
import os
import sys

METRICS = {"dram__bytes_read.sum": "read", "dram__bytes_write.sum": "write", "gpu__time_duration.sum": "ns"}
# ncu prints base units with --csv, but may scale them; values are made bytes and nanoseconds.
SCALE = {"byte": 1, "Kbyte": 1e3, "Mbyte": 1e6, "Gbyte": 1e9, "Tbyte": 1e12, "KiB": 1024, "MiB": 1024 ** 2,
         "GiB": 1024 ** 3, "ns": 1, "nsecond": 1, "us": 1e3, "usecond": 1e3, "ms": 1e6, "msecond": 1e6,
         "s": 1e9, "second": 1e9}


def parse_csv(path):
    """One call's kernels: {"kernels": n, "read": bytes, "write": bytes, "ns": kernel time}."""
    out = {"kernels": 0, "read": 0.0, "write": 0.0, "ns": 0.0}
    ids = set()
    col = {"ID": 0, "Metric Name": 12, "Metric Unit": 13, "Metric Value": 14}  # ncu 2024+, if no header
    with open(path) as f:
        for row in csv.reader(f):
            if row and row[0] == "ID":
                col = {name: i for i, name in enumerate(row)}
                continue
            if len(row) <= col["Metric Value"]:
                continue
            key = METRICS.get(row[col["Metric Name"]])
            ids.add(row[col["ID"]])
            if key:
                value = float(row[col["Metric Value"]].replace(",", ""))
                out[key] += value * SCALE.get(row[col["Metric Unit"]], 1)
    out["kernels"] = len(ids)
    return out


def load(outdir):
    """{(pipeline, size, schedule): row} for every (variant, size) ncu_run.sh ran in outdir."""
    rows = {}
    for rc_path in sorted(glob.glob(os.path.join(outdir, "*.rc"))):
        base = rc_path[:-3]
        p, s, size = os.path.basename(base).split("__")
        row = {"pipeline": p, "schedule": s, "size": size, "rc": open(rc_path).read().strip(), "record": {}}
        if os.path.exists(base + ".json"):
            row["record"] = (json.load(open(base + ".json"))["records"] or [{}])[0]
        if os.path.exists(base + ".csv"):
            row.update(parse_csv(base + ".csv"))
        rows[(p, size, s)] = row
    return rows


def mb(x):
    return "-" if x is None else f"{x / 1e6:.1f}" if x >= 1e6 else f"{x / 1e6:.4f}"


def main():
    rows = load(sys.argv[1])
    # Rows in `fuselab list --sizes` order, a pipeline's sizes one after the other.
    order, first = {}, {}
    listing = os.path.join(sys.argv[1], "variants.txt")
    if os.path.exists(listing):
        for i, line in enumerate(open(listing)):
            p, s, _, size = line.split()
            order[(p, size, s)] = i
            first.setdefault(p, i)
            first.setdefault((p, size), i)

    def rank(key):
        return (first.get(key[0], 1e9), first.get(key[:2], 1e9), order.get(key, 1e9), key)

    print("| pipeline | size | schedule | kernels (ncu) | kernels (ledger) | DRAM read MB | DRAM write MB | "
          "DRAM MB per call | min MB | DRAM / min | min + 2 x interm MB | kernel time us | note |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for (p, size, s), r in sorted(rows.items(), key=lambda kv: rank(kv[0])):
        rec = r["record"]
        ledger = rec.get("kernels")
        note = []
        if r["rc"] != "0":
            note.append(f"exit {r['rc']}" + (" (timed out)" if r["rc"] == "124" else ""))
        if rec.get("error"):
            note.append("refused: " + rec["error"][:60])
        if "kernels" not in r:
            print(f"| {p} | {size} | {s} | - | {ledger if ledger is not None else '?'} | - | - | - | "
                  f"{mb(rec.get('min_bytes'))} | - | - | - | {'; '.join(note) or 'no ncu output'} |")
            continue
        if ledger is not None and ledger != r["kernels"] and not rec.get("error"):
            note.append("MISMATCH with the ledger")
        dram = r["read"] + r["write"]
        least = rec.get("min_bytes")
        interm = rec.get("intermediate_bytes")
        ratio = f"{dram / least:.2f}" if least else "-"
        with_interm = mb(least + 2 * interm) if least is not None and interm is not None else "-"
        print(f"| {p} | {size} | {s} | {r['kernels']} | {ledger if ledger is not None else '?'} | {mb(r['read'])} | "
              f"{mb(r['write'])} | {mb(dram)} | {mb(least)} | {ratio} | {with_interm} | {r['ns'] / 1e3:.1f} | "
              f"{'; '.join(note)} |")


if __name__ == "__main__":
    main()
