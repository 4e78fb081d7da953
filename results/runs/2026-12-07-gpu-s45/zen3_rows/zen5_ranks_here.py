#!/usr/bin/env python3
"""s45: how the Zen 5's table (results/cpu.json, s42) ranks softmax and layernorm on this Zen 3:
at every (shape, type) both timed, the Zen 5's winner's time in this pass over this pass's winner.
  python3 results/runs/2026-12-07-gpu-s45/zen3_rows/zen5_ranks_here.py p1   (repository root)"""
import collections, glob, json, sys
Z = "results/runs/2026-12-07-gpu-s45/zen3_rows/" + sys.argv[1]
here, zen5 = collections.defaultdict(dict), collections.defaultdict(dict)
for path in glob.glob(f"{Z}/*.json"):
    for r in json.load(open(path))["records"]:
        if r.get("kind") == "fuselab" and r.get("ok"):
            here[(r["workload"], r["size"], r.get("dtype", "float32"))][r["name"]] = r["median_us"]
for r in json.load(open("results/cpu.json"))["records"]:
    if r.get("kind") == "fuselab" and r.get("ok") and r["workload"] in ("softmax", "layernorm"):
        zen5[(r["workload"], r["size"], r.get("dtype", "float32"))][r["name"]] = r["median_us"]
regrets = []
for k, t in here.items():
    if k in zen5 and min(zen5[k], key=zen5[k].get) in t:
        w5 = min(zen5[k], key=zen5[k].get)
        regrets.append((t[w5] / min(t.values()), k, w5, min(t, key=t.get)))
print(f"{sys.argv[1]}: the Zen 5's winner within 1.10x of this pass's at "
      f"{sum(r <= 1.10 for r, *_ in regrets)} of {len(regrets)} cells; the worst ten:")
for r in sorted(regrets)[-10:]:
    print(f"  {r[1][0]} {r[1][2]} {r[1][1]}: {r[2]} {r[0]:.2f}x ({r[3]} won)")
