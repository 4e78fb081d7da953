#!/usr/bin/env python3
"""s48: l1/search.csv (tools/row_search.cpp, one run) summarized: per (pipeline, dtype, N), the
fastest correct shipped strategy and the fastest correct L2 form (schedules/rows_l2.h: names
ending _l<MiB>), each in TB/s at the minimum bytes and as a share of the same run's copy.
    python3 l1_summary.py l1/search.csv"""
import csv, sys
from collections import defaultdict

rows = list(csv.DictReader(open(sys.argv[1])))
copy = [float(r["tbps"]) for r in rows if r["op"] == "copy"]
ceiling = copy[0] if copy else float("nan")
cells = defaultdict(list)
bad = []
for r in rows:
    if r["op"] in ("copy", "op"):
        continue
    try:
        us, tb = float(r["us"]), float(r["tbps"])
    except ValueError:
        continue
    if us <= 0:
        bad.append(r)
        continue
    cells[(r["op"], r["dtype"], int(r["n"]))].append((tb, r["candidate"]))
print(f"copy: {ceiling:.2f} TB/s (the same run)")
print("| pipeline | dtype | N | shipped best | TB/s | of copy | L2 form best | TB/s | of copy | L2 / shipped |")
print("|---|---|---|---|---|---|---|---|---|---|")
for (op, dt, n), c in sorted(cells.items()):
    sh = max((x for x in c if "_l" not in x[1] or not x[1].split("_")[-1][1:].isdigit()), default=None)
    l2 = max((x for x in c if x[1].split("_")[-1].startswith("l") and x[1].split("_")[-1][1:].isdigit()), default=None)
    f = lambda x: (x[1], f"{x[0]:.2f}", f"{x[0] / ceiling:.3f}") if x else ("-", "-", "-")
    ratio = f"{l2[0] / sh[0]:.3f}" if sh and l2 else "-"
    print(f"| {op} | {dt} | {n} | " + " | ".join(f(sh)) + " | " + " | ".join(f(l2)) + f" | {ratio} |")
print(f"\n{len(bad)} rows refused, failed or wrong:")
for r in bad:
    print("  ", r["op"], r["dtype"], r["n"], r["candidate"], r["us"], r.get("max_err", ""))
