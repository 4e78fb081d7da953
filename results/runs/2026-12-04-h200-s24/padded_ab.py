#!/usr/bin/env python3
"""b/'s same-call A/B of the padded block forms against 13e372e's (unpadded) kernels: each padded
strategy's speed-up over its cells, and fuselab's best as shipped (PADDED below) against its best
unpadded, per pipeline; with --subsets, which of the five to keep unpadded per pipeline.

    python3 results/runs/2026-12-04-h200-s24/padded_ab.py [--subsets]
"""
import glob
import itertools
import json
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
BOTH = ["staged_row_2k", "staged_row_8k", "staged_row_wide", "block_row_2k", "block_row_4k"]
PADDED = {(p, s) for p in ("softmax", "layernorm")
          for s in ("staged_row_8k", "block_row_2k", "block_row_4k")}


def load(names):
    out = {}
    for path in names:
        for r in json.load(open(os.path.join(HERE, "b", path)))["records"]:
            if r.get("median_us"):
                key = (r["workload"], r["name"], r.get("dtype", "float32"), r["size"])
                out[key] = r["min_bytes"] / r["median_us"] / 1e6
    return out


def best_ratio(new, old, pipe, keep_old):
    """Per cell: the best with `keep_old` unpadded and the rest padded, over the best unpadded."""
    cells = sorted({(k[2], k[3]) for k in new if k[0] == pipe})
    out = []
    for c in cells:
        cn = [(v, k[1]) for k, v in new.items() if k[0] == pipe and (k[2], k[3]) == c]
        co = [(v, k[1]) for k, v in old.items() if k[0] == pipe and (k[2], k[3]) == c]
        base = max([x for x in cn if x[1] not in BOTH] + co)
        ship = max([x for x in cn if x[1] not in keep_old] + [x for x in co if x[1] in keep_old])
        out.append(ship[0] / base[0])
    return out


def geo(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs))


def main():
    new = load([os.path.basename(p) for p in glob.glob(os.path.join(HERE, "b", "grid_*.json"))]
               + ["suite_unnamed.json"])
    old = load(["old_grid.json", "old_suite_unnamed.json"])
    for p, s in sorted(PADDED):
        rs = [new[k] / old[k] for k in new if k[0] == p and k[1] == s and k in old]
        print(f"{p:17s} {s:14s} {len(rs)} cells: {geo(rs):.3f}x ({min(rs):.2f} .. {max(rs):.2f})")
    for pipe in ("softmax", "layernorm", "rmsnorm_residual"):
        keep = [s for s in BOTH if (pipe, s) not in PADDED]
        rs = best_ratio(new, old, pipe, keep)
        print(f"{pipe}: best shipped / best unpadded {geo(rs):.3f}x over {len(rs)} cells, "
              f"{sum(r > 1.1 for r in rs)} over 1.10x, {sum(r < 0.97 for r in rs)} below 0.97x, "
              f"worst {min(rs):.2f}x")
        if "--subsets" in sys.argv:
            for m in range(len(BOTH) + 1):
                for sub in itertools.combinations(BOTH, m):
                    rs = best_ratio(new, old, pipe, sub)
                    print(f"  unpadded {sub}: {geo(rs):.3f}x, {sum(r < 0.97 for r in rs)} below "
                          f"0.97x, worst {min(rs):.2f}x")


if __name__ == "__main__":
    main()
