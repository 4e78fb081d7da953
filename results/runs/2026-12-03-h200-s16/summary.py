#!/usr/bin/env python3
"""summary.txt: each (pipeline, dtype, N) of this session's row timing, fuselab's best strategy
(from d/ where d/ timed it, else b/), its fraction of the copy (4.212 TB/s, b/'s torch copy), the
new strategies' figures, and the strongest peer of the same call (d/ at N = 256 and 1024, else b/).

    python3 results/runs/2026-12-03-h200-s16/summary.py > results/runs/2026-12-03-h200-s16/summary.txt
"""
import collections
import glob
import json
import os

here = os.path.dirname(os.path.abspath(__file__))
COPY = 4.212
NEW = ("warp_regs_1k", "staged_row_2k", "staged_row_8k")
tb = {}  # (p, dtype, size) -> {strategy: TB/s}
for path in sorted(glob.glob(f"{here}/d/regs_*.json")) + sorted(glob.glob(f"{here}/b/grid_*.json")):
    for r in json.load(open(path))["records"]:
        if r.get("median_us") is None or not r.get("ok", True):
            continue
        k = (r["workload"], r.get("dtype", "float32"), r["size"])
        name = r["name"]
        tb.setdefault(k, {}).setdefault(name, r["min_bytes"] / r["median_us"] / 1e6)
peers = collections.defaultdict(dict)
for path in (f"{here}/d/peers_regs.json", f"{here}/b/peers_rows.json"):
    for r in json.load(open(path))["records"]:
        if r["workload"] == "copy" or not r.get("ok") or r.get("median_us") is None:
            continue
        k = (r["workload"], r["dtype"], r["size"])
        peers[k].setdefault(r["name"], r["min_bytes"] / r["median_us"] / 1e6)
print(f"H200, 2026-12-03 s16: TB/s at the minimum bytes (median of CUDA-event times); copy {COPY} TB/s.")
print("fuselab: d/ (warp_regs_1k, warp_row, block_row_2k, staged_row_2k at N = 256, 512, 1000, 1024),")
print("else b/; peers: the same call as fuselab's best where both timed (d/ at 256 and 1024, else b/).")
hdr = f"{'pipeline':17} {'dtype':8} {'size':13} {'best fuselab':25} {'of copy':>7} " + \
    " ".join(f"{n:>13}" for n in NEW) + "  best peer"
print(hdr)
for k in sorted(tb, key=lambda k: (k[0], k[1], int(k[2].split("x")[0]), int(k[2].split("x")[1]))):
    s = tb[k]
    best = max(s, key=s.get)
    p = peers.get(k, {})
    bp = max(p, key=p.get) if p else None
    print(f"{k[0]:17} {k[1]:8} {k[2]:13} {best + ' ' + format(s[best], '.2f'):25} {s[best] / COPY:7.2f} " +
          " ".join(f"{s[n]:13.2f}" if n in s else f"{'-':>13}" for n in NEW) +
          (f"  {bp} {p[bp]:.2f}" if bp else "  -"))
