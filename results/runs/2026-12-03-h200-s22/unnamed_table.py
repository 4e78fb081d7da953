#!/usr/bin/env python3
"""fuselab's best against the strongest peer at row lengths the suite never names (c/, one call):
c/unnamed.json (tools/row_grid.py, every fused strategy) and c/peers_unnamed.json (peers.py:
eager, torch.compile, Liger; the copy). TB/s at the minimum bytes, and as a fraction of the copy.

  python3 results/runs/2026-12-03-h200-s22/unnamed_table.py > results/runs/2026-12-03-h200-s22/unnamed.txt
"""
import collections
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
u = json.load(open(os.path.join(HERE, "c", "unnamed.json")))
p = json.load(open(os.path.join(HERE, "c", "peers_unnamed.json")))
copy = p["meta"]["copy_bandwidth_GBps"] / 1e3
best, peer, mb = collections.defaultdict(lambda: (1e18, "")), collections.defaultdict(lambda: (1e18, "")), {}
for r in u["records"]:
    if r.get("error") is None and r.get("median_us"):
        k = (r["workload"], r["size"], r["dtype"])
        best[k] = min(best[k], (r["median_us"], r["name"]))
        mb[k] = r["min_bytes"]
for r in p["records"]:
    if r["workload"] != "copy" and r.get("ok") is not False and not r.get("error") and r.get("median_us"):
        k = (r["workload"], r["size"], r["dtype"])
        peer[k] = min(peer[k], (r["median_us"], r["name"]))
print(f"copy {copy:.2f} TB/s (peers.py, same call); TB/s at the minimum bytes (fraction of the copy)")
print(f"{'pipeline':17} {'dtype':9} {'NxM':11} {'fuselab best':16} {'TB/s':>12} {'strongest peer':15} "
      f"{'TB/s':>12} {'fuselab / peer time':>19}")
behind = 0
for k in sorted(best, key=lambda k: (k[0], k[2], int(k[1].split("x")[0]))):
    (b, bn), (q, qn) = best[k], peer[k]
    tb, tq = mb[k] / b / 1e6, mb[k] / q / 1e6
    behind += b > q
    print(f"{k[0]:17} {k[2]:9} {k[1]:11} {bn:16} {tb:5.2f} ({tb / copy:.2f}) {qn:15} "
          f"{tq:5.2f} ({tq / copy:.2f}) {b / q:19.2f}")
print(f"\nfuselab behind the strongest peer in {behind} of {len(best)} cells")
