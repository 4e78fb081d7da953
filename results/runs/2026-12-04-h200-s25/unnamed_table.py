#!/usr/bin/env python3
"""fuselab's best strategy beside the strongest peer at the row lengths the suite never names
(e2/: row_grid.py's records of this build, every fused strategy, and peers.py's of the same
call), TB/s at the minimum bytes; with --before, s24's table (b/, 2aa169a's kernels) beside it.

    python3 results/runs/2026-12-04-h200-s25/unnamed_table.py
"""
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
UNNAMED = ["1417x23680", "2100x15978", "4664x7194", "5989x5603", "9000x3728", "12345x2718"]


def tbps(r):
    return r["min_bytes"] / r["median_us"] / 1e6


def best(paths, allow=lambda r: True):
    out = {}
    for path in paths:
        for r in json.load(open(path))["records"]:
            if not r.get("median_us") or r["size"] not in UNNAMED or not allow(r):
                continue
            if r.get("ok") is False or r.get("wrong"):
                continue
            key = (r["workload"], r.get("dtype", "float32"), r["size"])
            if tbps(r) > out.get(key, (0, ""))[0]:
                out[key] = (tbps(r), r["name"])
    return out


def main():
    ours = best([os.path.join(HERE, "e2", "suite_unnamed.json"),
                 os.path.join(HERE, "e3", "suite_unnamed_rms_f16.json")])
    peers = best([os.path.join(HERE, "e2", "peers_unnamed.json")],
                 lambda r: r.get("kind") != "copy" and r.get("name") != "copy" and r.get("min_bytes"))
    behind = 0
    print(f"{'pipeline':17s} {'dtype':9s} {'NxM':11s} {'fuselab best':>28s} {'strongest peer':>24s} "
          f"{'fuselab/peer':>8s}")
    for key in sorted(ours):
        o, p = ours[key], peers.get(key, (float("nan"), "-"))
        ratio = o[0] / p[0]
        behind += ratio < 0.99
        print(f"{key[0]:17s} {key[1]:9s} {key[2]:11s} {o[1]:>16s} {o[0]:5.2f} TB/s "
              f"{p[1]:>14s} {p[0]:5.2f} TB/s {ratio:8.2f}")
    print(f"fuselab behind the strongest peer (by more than 1%) in {behind} of {len(ours)} cells")


if __name__ == "__main__":
    main()
