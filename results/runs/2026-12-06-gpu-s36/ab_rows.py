#!/usr/bin/env python3
"""s36: this session's row kernels against the build before them, from a.sh's row_grid records
(grid_<pipeline>_{new,old}.json, the same call): per (pipeline, type, N) each build's fastest
strategy and its time, their ratio, and each strategy's own new/old ratio.

    python3 ab_rows.py DIR
"""
import glob
import json
import math
import os
import sys


def load(path):
    out = {}
    for r in json.load(open(path))["records"]:
        if r.get("ok") and r.get("median_us"):
            n, m = (int(v) for v in r["size"].split("x"))
            out[(r["workload"], r["dtype"], n, r["name"])] = (r["median_us"], r.get("min_bytes", 0))
    return out


def main():
    d = sys.argv[1]
    new, old = {}, {}
    for p in glob.glob(os.path.join(d, "grid_*_new.json")):
        new.update(load(p))
        q = p.replace("_new.json", "_old.json")
        if os.path.exists(q):
            old.update(load(q))
    cells = sorted({k[:3] for k in new})
    print("| pipeline | dtype | N | new best | us | TB/s | old best | us | TB/s | old/new | per strategy old/new (geo mean) |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    allr = []
    for c in cells:
        ns = {k[3]: v for k, v in new.items() if k[:3] == c}
        os_ = {k[3]: v for k, v in old.items() if k[:3] == c}
        if not os_:
            continue
        bn = min(ns, key=lambda s: ns[s][0])
        bo = min(os_, key=lambda s: os_[s][0])
        common = [s for s in ns if s in os_]
        g = math.exp(sum(math.log(os_[s][0] / ns[s][0]) for s in common) / len(common))
        allr.append(os_[bo][0] / ns[bn][0])
        tb = lambda v: v[1] / v[0] / 1e6 if v[1] else float("nan")
        print(f"| {c[0]} | {c[1]} | {c[2]} | {bn} | {ns[bn][0]:.1f} | {tb(ns[bn]):.2f} | {bo} | "
              f"{os_[bo][0]:.1f} | {tb(os_[bo]):.2f} | {os_[bo][0] / ns[bn][0]:.3f} | {g:.3f} |")
    if allr:
        print(f"\nbest old/new, geometric mean over {len(allr)} cells: "
              f"{math.exp(sum(map(math.log, allr)) / len(allr)):.3f}; min {min(allr):.3f}, max {max(allr):.3f}")


if __name__ == "__main__":
    main()
