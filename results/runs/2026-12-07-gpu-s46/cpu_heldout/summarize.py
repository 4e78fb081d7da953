#!/usr/bin/env python3
"""s46: run.sh's seeds summed (choice_check_*.json): the final build's picks and s45's CLI's, each
strategy the median of REPEAT timings.   python3 summarize.py > summary.txt   (this folder)"""
import glob, json, os
H = os.path.dirname(os.path.abspath(__file__))
n = a = b = 0; wa = wb = 1.0; over = []; same = 0
for f in sorted(glob.glob(f"{H}/choice_check_*.json")):
    d = json.load(open(f))
    for c in d["cases"]:
        n += 1; a += c["regret"] <= 1.10; wa = max(wa, c["regret"])
        b += c["compare_regret"] <= 1.10; wb = max(wb, c["compare_regret"]); same += c["pick"] == c["compare_pick"]
        if c["regret"] > 1.3:
            over.append(f"  {os.path.basename(f)[13:17]} {c['pipeline']} {c['dtype']} {c['size']}: {c['pick']} {c['regret']:.2f}x, winner {c['winner']}")
print(f"s46, this Zen 3 (2 cores, AMD EPYC, no AVX-512), seeds 4611-4614 and 4693, every strategy the median of {d.get('repeat')} timings:")
print(f"  the final build (the far tier): {a} of {n} within 1.10x ({100*a/n:.0f}%), worst {wa:.2f}x")
print(f"  s45's CLI at the same shapes and times: {b} of {n}, worst {wb:.2f}x; the same pick at {same} of {n}")
print("  over 1.3x:\n" + "\n".join(over))
