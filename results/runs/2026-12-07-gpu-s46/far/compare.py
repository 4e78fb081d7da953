#!/usr/bin/env python3
"""s46: two leave-one-out runs of every shipped table (loo.sh's), compared: each table's count
within 1.10x, geometric mean, the rows the model decided, and every row whose pick changed.
  python3 results/runs/2026-12-07-gpu-s46/far/compare.py BEFORE_DIR AFTER_DIR"""
import math, re, sys

def rows(path):
    out = {}
    for line in open(path):
        m = re.match(r"(\S+)\s+(\S+)\s+(bfloat16|float16|float32|uint8|int32|\S+)\s+(\S+)\s+(\S+)\s+(measured|model)\s+([\d.]+)x", line)
        if m:
            w, size, dt, pick, win, by, r = m.groups()
            out[(w, size, dt)] = (pick, win, by, float(r))
    return out

def summary(rs, path):
    # The tool's own count (exact regrets; the rows print them rounded to two places).
    line = next(l.strip() for l in open(path) if "within 1.10x of the measured winner" in l)
    model = [v for v in rs.values() if v[2] == "model"]
    mw = max((v[3] for v in model), default=1)
    return f"{line}; by the model {len(model)} (worst {mw:.2f}x)"

for t in ("h200", "h100", "cpu", "cpu_avx2"):
    pa, pb = f"{sys.argv[1]}/loo_{t}.txt", f"{sys.argv[2]}/loo_{t}.txt"
    a, b = rows(pa), rows(pb)
    print(f"{t}:\n  before: {summary(a, pa)}\n  after:  {summary(b, pb)}")
    for k in sorted(a):
        if k in b and (a[k][0] != b[k][0] or a[k][2] != b[k][2]):
            print(f"    {' '.join(k)}: {a[k][0]} ({a[k][2]}) {a[k][3]:.2f}x -> {b[k][0]} ({b[k][2]}) {b[k][3]:.2f}x; winner {a[k][1]}")
