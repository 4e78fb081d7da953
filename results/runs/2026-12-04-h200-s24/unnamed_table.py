#!/usr/bin/env python3
"""fuselab's best shipped strategy beside the strongest peer at the row lengths the suite never
names (b/: row_grid.py's records of the shipped kernels and peers.py's of the same call), TB/s at
the minimum bytes and the fraction of the same call's copy.

    python3 results/runs/2026-12-04-h200-s24/unnamed_table.py
"""
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
PADDED = {(p, s) for p in ("softmax", "layernorm")
          for s in ("staged_row_8k", "block_row_2k", "block_row_4k")}
BOTH = {"staged_row_2k", "staged_row_8k", "staged_row_wide", "block_row_2k", "block_row_4k"}
UNNAMED = ["1417x23680", "2100x15978", "4664x7194", "5989x5603", "9000x3728", "12345x2718"]


def main():
    ours = {}
    for name, padded_build in (("suite_unnamed.json", True), ("old_suite_unnamed.json", False)):
        for r in json.load(open(os.path.join(HERE, "b", name)))["records"]:
            if not r.get("median_us") or r["size"] not in UNNAMED:
                continue
            if r["name"] in BOTH and ((r["workload"], r["name"]) in PADDED) != padded_build:
                continue
            tb = r["min_bytes"] / r["median_us"] / 1e6
            key = (r["workload"], r.get("dtype", "float32"), r["size"])
            if tb > ours.get(key, (0, ""))[0]:
                ours[key] = (tb, r["name"])
    peers, copy = {}, None
    for r in json.load(open(os.path.join(HERE, "b", "peers_unnamed.json")))["records"]:
        if r.get("kind") == "copy" or r.get("name") == "copy":
            copy = copy or r.get("tbps") or r.get("TBps")
        if not r.get("ok", True) or r.get("wrong") or not r.get("median_us"):
            continue
        key = (r["workload"], r.get("dtype", "float32"), r["size"])
        if key not in ours:
            continue
        tb = r["min_bytes"] / r["median_us"] / 1e6 if r.get("min_bytes") else None
        if tb and tb > peers.get(key, (0, ""))[0]:
            peers[key] = (tb, r["name"])
    behind = 0
    print(f"{'pipeline':17s} {'dtype':9s} {'NxM':11s} {'fuselab best':>28s} {'strongest peer':>24s} "
          f"{'peer/fuselab time':>8s}")
    for key in sorted(ours):
        o, p = ours[key], peers.get(key, (float("nan"), "-"))
        ratio = o[0] / p[0]
        behind += ratio < 0.99
        print(f"{key[0]:17s} {key[1]:9s} {key[2]:11s} {o[1]:>16s} {o[0]:5.2f} TB/s "
              f"{p[1]:>14s} {p[0]:5.2f} TB/s {ratio:8.2f}")
    print(f"fuselab behind the strongest peer (by more than 1%) in {behind} of {len(ours)} cells")


if __name__ == "__main__":
    main()
