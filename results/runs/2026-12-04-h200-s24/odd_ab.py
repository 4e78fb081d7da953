#!/usr/bin/env python3
"""d/'s same-call A/B of the odd-row prototype (odd_rows_prototype.diff: threads over adjacent
elements where rows are not whole aligned vectors) against 2aa169a's padded forms: the speed-up
over rows that are whole 16-byte vectors and over those that are not, per type.

    python3 results/runs/2026-12-04-h200-s24/odd_ab.py
"""
import json
import math
import os

HERE = os.path.dirname(os.path.abspath(__file__))


def load(name):
    out = {}
    for r in json.load(open(os.path.join(HERE, "d", name)))["records"]:
        if r.get("median_us"):
            key = (r["workload"], r["name"], r.get("dtype", "float32"), r["size"])
            out[key] = r["min_bytes"] / r["median_us"] / 1e6
    return out


def main():
    new, old = load("grid_new.json"), load("grid_old.json")
    for aligned in (True, False):
        for dtype in ("float32", "bfloat16", "float16"):
            v = 4 if dtype == "float32" else 8
            rs = [new[k] / old[k] for k in new if k in old and k[2] == dtype
                  and (int(k[3].split("x")[0]) % v == 0) == aligned]
            g = math.exp(sum(math.log(x) for x in rs) / len(rs))
            print(f"{'aligned' if aligned else 'not aligned':11s} {dtype:9s} {len(rs)} cells: "
                  f"{g:.3f}x ({min(rs):.2f} .. {max(rs):.2f})")


if __name__ == "__main__":
    main()
