#!/usr/bin/env python3
"""The Form::exact experiment's table: per (op, dtype, N), each x strategy's time against its base
(the shipped form it copies), the median of the two rounds' medians; and the best shipped against
the best with the x strategies. Usage: python3 exp_table.py DIR (r1_*.json, r2_*.json there)."""
import glob, json, statistics, sys, collections
d = sys.argv[1]
base = {"xb2k_e": "block_row_2k", "xb4k_e": "block_row_4k", "xs4k_e": "staged_row_4k", "xs8k_e": "staged_row_8k",
        "xs16k_e": "staged_row_16k", "xs2k_e": "staged_row_2k", "xsw_e": "staged_row_wide"}
t = collections.defaultdict(list)
for f in sorted(glob.glob(f"{d}/r[12]_*.json")):
    for r in json.load(open(f))["records"]:
        if r.get("ok") and r.get("median_us"):
            n = int(r["size"].split("x")[0])
            t[(r["workload"], r["dtype"], n, r["name"])].append(r["median_us"])
med = {k: statistics.median(v) for k, v in t.items()}
cells = sorted({k[:3] for k in med})
print("op dtype N | x: base us -> x us (base/x) ... | best shipped -> best overall (gain)")
for c in cells:
    row = []
    shipped = {s: u for (o, dt, n, s), u in med.items() if (o, dt, n) == c and not s.startswith("x")}
    every = {s: u for (o, dt, n, s), u in med.items() if (o, dt, n) == c}
    for x, b in base.items():
        if (*c, x) in med and (*c, b) in med:
            row.append(f"{x} {med[(*c, b)]:.1f}->{med[(*c, x)]:.1f} ({med[(*c, b)] / med[(*c, x)]:.3f})")
    bs = min(shipped, key=shipped.get); be = min(every, key=every.get)
    print(f"{c[0]} {c[1]} {c[2]} | " + "; ".join(row) +
          f" | {bs} {shipped[bs]:.1f} -> {be} {every[be]:.1f} ({shipped[bs] / every[be]:.3f})")
