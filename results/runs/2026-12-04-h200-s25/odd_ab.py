#!/usr/bin/env python3
"""e1/'s same-call A/B of s25's kernels for rows that are not whole aligned vectors against
2aa169a's (the changed strategies at s22's 87 grid shapes, the three types): the speed-up per
(pipeline, strategy, type) over rows that are not whole aligned vectors, and over those that are
(the same PTX: this is the call's noise); then e2/'s held-out shapes, the shipped build.

    python3 results/runs/2026-12-04-h200-s25/odd_ab.py
"""
import glob
import json
import math
import os

HERE = os.path.dirname(os.path.abspath(__file__))


def load(which, pattern="e1/grid_*_{}.json"):
    out = {}
    for path in glob.glob(os.path.join(HERE, pattern.format(which))):
        for r in json.load(open(path))["records"]:
            if r.get("median_us"):
                key = (r["workload"], r["name"], r.get("dtype", "float32"), r["size"])
                out[key] = r["min_bytes"] / r["median_us"] / 1e6
    return out


def geo(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs))


B16 = ("bfloat16", "float16")
# As shipped (each schedule file's Form::adjacent): which (pipeline, strategy, type) keep the layout.
SHIPPED = {("softmax", s, d) for s in ("staged_row_2k", "staged_row_8k", "block_row_2k",
                                       "block_row_4k") for d in B16}
SHIPPED |= {("softmax", "staged_row_wide", d) for d in ("float32",) + B16}
SHIPPED |= {("layernorm", s, d) for s in ("staged_row_2k", "staged_row_wide", "block_row_2k",
                                          "block_row_4k") for d in ("float32",) + B16}
SHIPPED |= {("layernorm", "staged_row_8k", d) for d in B16}


def main():
    new, old = load("new"), load("old")
    groups = {}
    for k in new:
        if k not in old:
            continue
        v = 4 if k[2] == "float32" else 8
        aligned = int(k[3].split("x")[0]) % v == 0
        groups.setdefault((aligned, k[2]), []).append(new[k] / old[k])
        groups.setdefault((aligned, k[0], k[1], k[2]), []).append(new[k] / old[k])
        if not aligned and (k[0], k[1], k[2]) in SHIPPED:
            groups.setdefault((False, "as shipped", k[2]), []).append(new[k] / old[k])
    for key in sorted(groups, key=lambda k: (len(k), k)):
        rs = groups[key]
        label = ("aligned" if key[0] else "not aligned") + " " + " ".join(key[1:])
        print(f"{label:52s} {len(rs):4d} cells: {geo(rs):.3f}x ({min(rs):.2f} .. {max(rs):.2f})")
    # e2/: the shipped build against 2aa169a's at seed 2406's held-out shapes, same call.
    new, old = load("new", "e2/heldout_{}.json"), load("old", "e2/heldout_{}.json")
    held = {}
    for k in new:
        if k in old:
            v = 4 if k[2] == "float32" else 8
            aligned = int(k[3].split("x")[0]) % v == 0
            changed = (k[0], k[1], k[2]) in SHIPPED
            held.setdefault((aligned, changed), []).append(new[k] / old[k])
    for (aligned, changed), rs in sorted(held.items()):
        label = (f"held-out (e2) {'aligned' if aligned else 'not aligned'} "
                 f"{'changed' if changed else 'unchanged'}")
        print(f"{label:52s} {len(rs):4d} cells: {geo(rs):.3f}x ({min(rs):.2f} .. {max(rs):.2f})")


if __name__ == "__main__":
    main()
