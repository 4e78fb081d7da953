#!/usr/bin/env python3
"""s37: this session's row kernels (new) against d8663c6's (old), from g2.sh's row_grid records
(grid_<pipeline>_{new,old}_{1,2}.json, one call, ordered new-old then old-new): each strategy's
time per build is the geometric mean of its two rounds' medians; per (pipeline, type, N) each
build's fastest strategy, the ratio old/new, and the strategies whose own old/new moved most.

    python3 ab_rows.py DIR
"""
import glob
import json
import math
import os
import sys


def load(paths):
    acc = {}
    for p in paths:
        for r in json.load(open(p))["records"]:
            if r.get("ok") and r.get("median_us"):
                n = int(r["size"].split("x")[0])
                k = (r["workload"], r["dtype"], n, r["name"])
                acc.setdefault(k, []).append((r["median_us"], r.get("min_bytes", 0)))
    return {k: (math.exp(sum(math.log(v[0]) for v in vs) / len(vs)), vs[0][1])
            for k, vs in acc.items()}


def main():
    d = sys.argv[1]
    new = load(glob.glob(os.path.join(d, "grid_*_new_*.json")))
    old = load(glob.glob(os.path.join(d, "grid_*_old_*.json")))
    cells = sorted({k[:3] for k in new})
    print("| pipeline | dtype | N | new best | us | TB/s | old best | us | TB/s | old/new | "
          "strategies old/new (most changed) |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    best = []
    for c in cells:
        ns = {k[3]: v for k, v in new.items() if k[:3] == c}
        os_ = {k[3]: v for k, v in old.items() if k[:3] == c}
        if not os_:
            continue
        bn = min(ns, key=lambda s: ns[s][0])
        bo = min(os_, key=lambda s: os_[s][0])
        per = sorted(((os_[s][0] / ns[s][0], s) for s in ns if s in os_), reverse=True)
        moved = ", ".join(f"{s} {r:.2f}" for r, s in per if abs(r - 1) > 0.03)
        best.append(os_[bo][0] / ns[bn][0])
        tb = lambda v: v[1] / v[0] / 1e6 if v[1] else float("nan")
        print(f"| {c[0]} | {c[1]} | {c[2]} | {bn} | {ns[bn][0]:.1f} | {tb(ns[bn]):.2f} | {bo} | "
              f"{os_[bo][0]:.1f} | {tb(os_[bo]):.2f} | {os_[bo][0] / ns[bn][0]:.3f} | {moved} |")
    print(f"\nbest old/new, geometric mean over {len(best)} cells: "
          f"{math.exp(sum(map(math.log, best)) / len(best)):.3f}; min {min(best):.3f}, "
          f"max {max(best):.3f}")


if __name__ == "__main__":
    main()
