#!/usr/bin/env python3
"""Reads fuselab_row_search's CSV rows (one or more files) and prints, per (pipeline, dtype, N),
the fastest correct candidate, its TB/s and share of the run's copy, and the fastest shipped
strategy beside it (Markdown). --cases prints the winners at the given Ns as a --cases list for
fuselab_row_search (its Nsight Compute run); --json writes every row as JSON.

    python3 tools/row_search_report.py search.csv [--ns 256,4096,65536] [--cases] [--json F]
"""
import argparse
import csv
import json
import math
import sys
from collections import defaultdict

SHIPPED = ("block_row", "warp_row", "block_row_wide", "two_pass", "unfused")


def load(paths):
    rows = []
    for p in paths:
        with open(p) as f:
            for r in csv.DictReader(f):
                if not r.get("op") or r["op"] == "op":
                    continue
                try:
                    r["n"], r["us"], r["tbps"] = int(r["n"]), float(r["us"]), float(r["tbps"])
                except ValueError:
                    continue
                try:
                    r["max_err"] = float(r["max_err"])
                except ValueError:
                    r["max_err"] = math.nan
                rows.append(r)
    return rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("csv", nargs="+")
    ap.add_argument("--ns", default="")
    ap.add_argument("--dtypes", default="")
    ap.add_argument("--cases", action="store_true")
    ap.add_argument("--json")
    a = ap.parse_args()
    rows = load(a.csv)
    copy = max((r["tbps"] for r in rows if r["op"] == "copy"), default=0.0)
    cells = defaultdict(list)
    for r in rows:
        if r["op"] != "copy" and r["us"] > 0 and not math.isnan(r["max_err"]):
            cells[(r["op"], r["dtype"], r["n"])].append(r)
    wrong = [r for r in rows if r["op"] != "copy" and r["us"] > 0 and math.isnan(r["max_err"])]
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"copy_tbps": copy, "rows": rows}, f, indent=1)
    ns = {int(n) for n in a.ns.split(",") if n}
    dts = {d for d in a.dtypes.split(",") if d}
    if a.cases:
        out = []
        for (op, dt, n), rs in sorted(cells.items()):
            if (ns and n not in ns) or (dts and dt not in dts):
                continue
            best = max(rs, key=lambda r: r["tbps"])
            out.append(f"{op}:{dt}:{n}:{best['candidate']}")
        print(",".join(out))
        return
    print(f"copy (same run): {copy:.2f} TB/s\n")
    print("| pipeline | dtype | N | best candidate | TB/s | of copy | best shipped | TB/s | runner-up |")
    print("|---|---|---|---|---|---|---|---|---|")
    for (op, dt, n), rs in sorted(cells.items(), key=lambda kv: (kv[0][0], kv[0][1], kv[0][2])):
        rs = sorted(rs, key=lambda r: -r["tbps"])
        best = rs[0]
        shipped = [r for r in rs if r["candidate"] in SHIPPED]
        sb = shipped[0] if shipped else None
        second = rs[1] if len(rs) > 1 else None
        print(f"| {op} | {dt} | {n} | {best['candidate']} | {best['tbps']:.2f} | "
              f"{best['tbps'] / copy if copy else 0:.2f} | "
              f"{sb['candidate'] if sb else '-'} | {sb['tbps'] if sb else 0:.2f} | "
              f"{second['candidate'] + ' ' + format(second['tbps'], '.2f') if second else '-'} |")
    if wrong:
        print(f"\n{len(wrong)} rows outside their bound (candidate, pipeline, dtype, N):")
        for r in wrong[:40]:
            print(f"- {r['candidate']} {r['op']} {r['dtype']} {r['n']}")
    sys.exit(0)


if __name__ == "__main__":
    main()
