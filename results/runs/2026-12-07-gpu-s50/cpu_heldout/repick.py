#!/usr/bin/env python3
"""s50 (s49's repick.py): s47's, s48's and s49's held-out cases on the Xeon of model 207
(choice_check_*.json) picked again by other CLIs (no timing: each case's saved times score the new
pick): s49's build (/tmp/fuselab_s49) and the final one (/tmp/fuselab_s50b: ../xeon_mid's rows,
16 lanes, ../lanes/); with REPICK_S50=1, this session's cases (run.sh) too.
    .venv/bin/python repick.py CLI... > repick_all.txt   (repository root)"""
import glob, json, math, os, sys, tempfile
import numpy as np
sys.path.insert(0, "tools")
import choice_check as cc

HS = ["results/runs/2026-12-07-gpu-s47/cpu_heldout", "results/runs/2026-12-07-gpu-s48/cpu_heldout",
      "results/runs/2026-12-07-gpu-s49/cpu_heldout"]
if os.environ.get("REPICK_S50"):  # this folder's cases too (run.sh's)
    HS.append("results/runs/2026-12-07-gpu-s50/cpu_heldout")
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
