#!/usr/bin/env python3
"""s51: results/cpu_xeon.json's winner at 2^25 elements (model 207's passes) against 2^26 (this
session's, model 167) for each (pipeline, type, N) timed at both: the 2^25 winner's time at 2^26
over the 2^26 winner's. The README's "16 of 63", "11 of 14" and "1.11x to 1.64x" come from here.
    .venv/bin/python results/runs/2026-12-08-gpu-s51/xeon_big/winners.py > .../winners.txt   (repository root)"""
import collections, json, math

t = collections.defaultdict(dict)
for r in json.load(open("results/cpu_xeon.json"))["records"]:
    n, m = map(int, r["size"].split("x"))
    e = round(math.log2(n * m), 1)
    if e in (25.0, 26.0):
        t[(r["workload"], r["dtype"], n, e)][r["name"]] = r["median_us"]
changed = total = 0
for p in ("softmax", "rmsnorm_residual", "layernorm"):
    for dt in ("float32", "bfloat16", "float16"):
        cells = []
        for n in (16, 100, 256, 1000, 4096, 16384, 65536):
            a, b = t.get((p, dt, n, 25.0)), t.get((p, dt, n, 26.0))
            if not a or not b:
                continue
            wa, wb = min(a, key=a.get), min(b, key=b.get)
            total += 1
            changed += wa != wb
            cells.append(f"{n}: {wa} -> {wb} ({b[wa] / b[wb]:.2f}x)")
        print(f"{p} {dt}: " + "; ".join(cells))
print(f"the winner changes at {changed} of {total} cells")
