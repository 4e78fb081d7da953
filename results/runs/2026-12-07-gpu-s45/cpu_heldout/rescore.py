#!/usr/bin/env python3
"""s45: the short-row seeds' cases (4591, 4592) picked again by the build with zen3_short's rows
in results/cpu_avx2.json, scored against the times stored in choice_check_*.json (no new timing;
these shapes were seen before the rows were added, so this is not a held-out figure).
  .venv/bin/python results/runs/2026-12-07-gpu-s45/cpu_heldout/rescore.py SEED...   (repository root)"""
import json, os, sys, tempfile
import numpy as np
sys.path.insert(0, "tools")
from choice_check import pick_of

H = os.path.dirname(os.path.abspath(__file__))
rng = np.random.default_rng(2026)
for seed in sys.argv[1:]:
    d = json.load(open(f"{H}/choice_check_{seed}.json"))
    within = before = 0
    worst = worst_before = 1.0
    for c in d["cases"]:
        n, m = map(int, c["size"].split("x"))
        with tempfile.TemporaryDirectory() as t:
            pick, source, _ = pick_of("build/cli/fuselab", c["pipeline"], c["dtype"], n, m, "cpu", t, rng)
        times = c["times_us"]
        r = times[pick] / min(times.values())
        within += r <= 1.10; worst = max(worst, r)
        before += c["regret"] <= 1.10; worst_before = max(worst_before, c["regret"])
        if pick != c["pick"]:
            print(f"  {seed} {c['pipeline']} {c['dtype']} {c['size']}: {c['pick']} {c['regret']:.2f}x -> {pick} ({source}) {r:.2f}x")
    print(f"seed {seed} (repeat {d.get('repeat', 1)}): {within} of {len(d['cases'])} within 1.10x, worst {worst:.2f}x; "
          f"as run: {before}, worst {worst_before:.2f}x")
