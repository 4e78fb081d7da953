#!/usr/bin/env python3
"""s26 k/: float16's conversions by the hardware (generators/storage.h: HalfRoute::Guarded)
against 5a2a2b6's kernels (through the bits on rows that are not whole aligned 16-byte vectors),
same call (tools/row_grid.py, grid_new.json and grid_old.json): per (pipeline, aligned or not),
the geometric mean of old/new time over every fused strategy and shape, and of the best strategy
per shape; the spread; then the best at each of the six unnamed shapes beside the peers of the same
call (peers_unnamed.json).
    python3 results/runs/2026-12-04-h200-s26/half_ab.py [DIR]   (default: this folder's k/)"""
import collections, json, math, os, sys

d = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "k")
load = lambda f: json.load(open(os.path.join(d, f)))["records"]
key = lambda r: (r["workload"], r["size"], r["name"])
new = {key(r): r["median_us"] for r in load("grid_new.json") if r.get("ok", True) and r.get("median_us")}
old = {key(r): r["median_us"] for r in load("grid_old.json") if r.get("ok", True) and r.get("median_us")}
aligned = lambda size: int(size.split("x")[0]) % 8 == 0
geo = lambda xs: math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")
per = collections.defaultdict(list)
best_new, best_old = {}, {}
for k, t in new.items():
    if k in old:
        per[(k[0], aligned(k[1]))].append(old[k] / t)
    cell = k[:2]
    best_new[cell] = min(best_new.get(cell, (1e30, ""))[0], t), None
for k, t in old.items():
    cell = k[:2]
    best_old[cell] = min(best_old.get(cell, (1e30, ""))[0], t), None
print("old/new time (> 1: the new kernels faster), every fused strategy and shape of the call")
print(f"{'pipeline':18} {'rows':10} {'cells':>5} {'geomean':>8} {'min':>6} {'max':>6}")
for (p, a), xs in sorted(per.items()):
    print(f"{p:18} {'aligned' if a else 'unaligned':10} {len(xs):5d} {geo(xs):8.3f} {min(xs):6.2f} {max(xs):6.2f}")
bp = collections.defaultdict(list)
for cell, (t, _) in best_new.items():
    if cell in best_old:
        bp[(cell[0], aligned(cell[1]))].append(best_old[cell][0] / t)
print("\nbest strategy per shape, old best / new best")
for (p, a), xs in sorted(bp.items()):
    print(f"{p:18} {'aligned' if a else 'unaligned':10} {len(xs):5d} {geo(xs):8.3f} {min(xs):6.2f} {max(xs):6.2f}")
# The unnamed shapes beside the peers of the same call (TB/s at the minimum bytes).
peers = collections.defaultdict(dict)
copy = None
for r in load("peers_unnamed.json"):
    if r.get("name") == "copy" or r.get("kind") == "copy":
        copy = r
    if r.get("dtype") != "float16" or not r.get("ok", True) or not r.get("median_us"):
        continue
    peers[(r["workload"], r["size"])][r["name"]] = r["median_us"]
mb = {key(r)[:2]: r["min_bytes"] for r in load("grid_new.json")}
names = {}
for k, t in new.items():
    if t == best_new[k[:2]][0]:
        names[k[:2]] = k[2]
print("\nunnamed shapes, float16, TB/s at the minimum bytes (same call)")
print(f"{'pipeline':18} {'NxM':12} {'new best':>24} {'old best':>8} {'strongest peer':>22} {'new/peer':>8}")
behind = 0
for cell in sorted(peers):
    if cell not in best_new:
        continue
    b = mb[cell] / 1e6
    pn, pt = min(peers[cell].items(), key=lambda kv: kv[1])
    tn, to = best_new[cell][0], best_old[cell][0]
    behind += tn > pt * 1.01
    print(f"{cell[0]:18} {cell[1]:12} {names[cell]:>15} {b / tn:8.2f} {b / to:8.2f} {pn:>15} {b / pt:6.2f} {pt / tn:8.2f}")
print(f"fuselab behind the strongest peer (by more than 1%) in {behind} of {len([c for c in peers if c in best_new])} float16 cells")
