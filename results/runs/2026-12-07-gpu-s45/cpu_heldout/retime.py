#!/usr/bin/env python3
"""s45: how far one timing of every strategy decides the winner on this VM. For each case of
choice_check_*.json (the held-out run), every strategy is timed again at the same shape, as
choice_check times it (tools/choice_check.py: times_of, one `fuselab bench` a case), and the first
run's winner and both builds' picks are scored against the new times. Where the first run's own
winner is not within 1.10x in the second run, no choice could be judged there at that precision.
  .venv/bin/python results/runs/2026-12-07-gpu-s45/cpu_heldout/retime.py OUT.json SEED...
"""
import json, os, sys, tempfile
sys.path.insert(0, "tools")
from choice_check import times_of

H = os.path.dirname(os.path.abspath(__file__))
out, seeds = sys.argv[1], sys.argv[2:]
cases = []
for seed in seeds:
    for r in json.load(open(f"{H}/choice_check_{seed}.json"))["cases"]:
        n, m = map(int, r["size"].split("x"))
        with tempfile.TemporaryDirectory() as d:
            t2 = times_of("build/cli/fuselab", r["pipeline"], r["dtype"], n, m, "cpu", 0.05, d)
        w2 = min(t2, key=t2.get)
        rec = dict(seed=seed, pipeline=r["pipeline"], dtype=r["dtype"], size=r["size"],
                   winner1=r["winner"], winner2=w2, times1=r["times_us"], times2=t2,
                   first_winner_regret=t2[r["winner"]] / t2[w2], pick=r["pick"],
                   pick_regret2=t2[r["pick"]] / t2[w2], compare_pick=r["compare_pick"],
                   compare_regret2=t2[r["compare_pick"]] / t2[w2])
        cases.append(rec)
        print(f"{seed} {r['pipeline']:17} {r['dtype']:9} {r['size']:12} winner {r['winner']:14} "
              f"then {w2:14} {rec['first_winner_regret']:.2f}x; pick {r['pick']} "
              f"{r['regret']:.2f}x then {rec['pick_regret2']:.2f}x", flush=True)
        json.dump(cases, open(out, "w"), indent=1)
k = len(cases)
for key, what in (("first_winner_regret", "the first run's winner"), ("pick_regret2", "s45's pick"),
                  ("compare_regret2", "s44's pick")):
    print(f"{what}: {sum(c[key] <= 1.10 for c in cases)} of {k} within 1.10x in the second run, "
          f"worst {max(c[key] for c in cases):.2f}x")
