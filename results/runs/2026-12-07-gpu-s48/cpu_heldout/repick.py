#!/usr/bin/env python3
"""s48 (s47's repick.py): s47's choice_check_*.json cases picked again by other CLIs (no timing: each case's saved times
score the new pick), e.g. a build that consults the Zen 3's table before the AMD EPYC one.
    .venv/bin/python repick.py CLI...   (repository root)"""
import glob, json, math, os, sys, tempfile
import numpy as np
sys.path.insert(0, "tools")
import choice_check as cc

H = "results/runs/2026-12-07-gpu-s47/cpu_heldout"  # s47's cases and times
rng = np.random.default_rng(1)
for cli in sys.argv[1:]:
    n = a = 0; worst = 1.0; lg = 0.0
    for f in sorted(glob.glob(f"{H}/choice_check_*.json")):
        for c in json.load(open(f))["cases"]:
            t = {k: v for k, v in (c["times_us"].items() if isinstance(c["times_us"], dict) else c["times_us"])
                 if not k.startswith("xp_")}
            N, M = map(int, c["size"].split("x"))
            with tempfile.TemporaryDirectory() as d:
                pick, source, reason = cc.pick_of(cli, c["pipeline"], c["dtype"], N, M, "cpu", d, rng)
            r = t[pick] / min(t.values())
            n += 1; a += r <= 1.10; worst = max(worst, r); lg += math.log(r)
            if r > 1.10:
                print(f"  {os.path.basename(f)[13:17]} {c['pipeline']} {c['dtype']} {c['size']}: {pick} {r:.2f}x ({source})")
    print(f"{cli}: {a} of {n} within 1.10x ({100 * a / n:.1f}%), geometric mean {math.exp(lg / n):.3f}, worst {worst:.2f}x")
