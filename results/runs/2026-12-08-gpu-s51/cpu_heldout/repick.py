#!/usr/bin/env python3
"""s51 (s50's repick.py): s47's to s50's held-out cases on the Xeons named "Intel(R) Xeon(R)
Processor" (choice_check_*.json: s47 to s49 and s50's seeds 5011, 5012, 5091 on model 207; s50's
5013, 5092, 5093 on model 167) picked again by other CLIs (no timing: each case's saved times
score the new pick): s50's final build (/tmp/fuselab_s50) and this session's (/tmp/fuselab_s51:
../xeon_big's rows of 2^26 elements in results/cpu_xeon.json). Summed apart by VM model.
    .venv/bin/python repick.py CLI... > repick_all.txt   (repository root)"""
import glob, json, math, os, sys, tempfile
import numpy as np
sys.path.insert(0, "tools")
import choice_check as cc

HS = ["results/runs/2026-12-07-gpu-s47/cpu_heldout", "results/runs/2026-12-07-gpu-s48/cpu_heldout",
      "results/runs/2026-12-07-gpu-s49/cpu_heldout", "results/runs/2026-12-07-gpu-s50/cpu_heldout"]
ON_167 = {"5013", "5092", "5093"}  # s50's second try's VM


def model(f):
    return "167" if os.path.basename(f)[13:17] in ON_167 else "207"


rng = np.random.default_rng(1)
files = [g for H in HS for g in sorted(glob.glob(f"{H}/choice_check_*.json"))]
for cli, vm in [(c, m) for c in sys.argv[1:] for m in ("207", "167")]:
    n = a = 0; worst = 1.0; lg = 0.0
    for f in [g for g in files if model(g) == vm]:
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
    print(f"{cli}, model {vm}'s cases: {a} of {n} within 1.10x ({100 * a / n:.1f}%), geometric mean {math.exp(lg / n):.3f}, worst {worst:.2f}x")
