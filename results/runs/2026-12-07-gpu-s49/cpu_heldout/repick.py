#!/usr/bin/env python3
"""s49 (s48's repick.py): s47's and s48's held-out cases on this Xeon (choice_check_*.json) picked
again by other CLIs (no timing: each case's saved times score the new pick): s48's build and this
session's, whose table adds short rows at 2^20 and 2^25 elements; with REPICK_S49=1, this
session's cases (run.sh) too. The environment passes to the CLIs (FUSELAB_EXP_LANES: lanes.diff's
experiment, results/runs/2026-12-07-gpu-s49/lanes_rule/).
    .venv/bin/python repick.py CLI...   (repository root)"""
import glob, json, math, os, sys, tempfile
import numpy as np
sys.path.insert(0, "tools")
import choice_check as cc

HS = ["results/runs/2026-12-07-gpu-s47/cpu_heldout", "results/runs/2026-12-07-gpu-s48/cpu_heldout"]
if os.environ.get("REPICK_S49"):  # this folder's cases too (run.sh's)
    HS.append("results/runs/2026-12-07-gpu-s49/cpu_heldout")
rng = np.random.default_rng(1)
for cli in sys.argv[1:]:
    n = a = 0; worst = 1.0; lg = 0.0
    for f in [g for H in HS for g in sorted(glob.glob(f"{H}/choice_check_*.json"))]:
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
