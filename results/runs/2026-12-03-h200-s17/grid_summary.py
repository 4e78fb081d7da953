#!/usr/bin/env python3
"""s17: per (op, type, N) the fastest fuselab strategies of a grid call (grid_<op>.json) beside the
peers of the same call (peers_rows.json) and its copy. Usage: grid_summary.py DIR [DIR2 ...]:
grids from every DIR (the first one's record of a cell kept), the peers of DIR only."""
import collections
import json
import os
import sys

dirs = sys.argv[1:]
peers = json.load(open(f"{dirs[0]}/peers_rows.json"))["records"]
best = collections.defaultdict(dict)
copy = None
for r in peers:
    if not r.get("ok", True) or not r.get("median_us"):
        continue
    tb = r["min_bytes"] / r["median_us"] / 1e6
    if r["workload"] == "copy":
        copy = tb
        continue
    best[(r["workload"], r["dtype"], int(r["size"].split("x")[0]))][r["name"]] = tb
print(f"copy {copy:.2f} TB/s (peers' call)")
for p in ["softmax", "rmsnorm_residual", "layernorm"]:
    rows = collections.defaultdict(dict)
    for d in dirs:
        for path in (f"{d}/grid_{p}.json", f"{d}/staged8k_{p}.json"):
            if not os.path.exists(path):
                continue
            for r in json.load(open(path))["records"]:
                if r.get("median_us") is None:
                    continue
                k = (p, r["dtype"], int(r["size"].split("x")[0]))
                rows[k].setdefault(r["name"], r["min_bytes"] / r["median_us"] / 1e6)
    for k in sorted(rows):
        top = sorted(rows[k].items(), key=lambda kv: -kv[1])
        ours = " ".join(f"{a} {b:.2f}" for a, b in top[:3])
        pk = best.get(k, {})
        line = f"{k[0]} {k[1]} N={k[2]}: {ours} (of copy {top[0][1] / copy:.3f})"
        if pk:
            pn, pv = max(pk.items(), key=lambda kv: kv[1])
            line += f" | best peer {pn} {pv:.2f}, ours/peer {top[0][1] / pv:.3f}"
        print(line)
