#!/usr/bin/env python3
"""s49 (s48's summarize.py): run.sh's seeds summed (choice_check_*.json) on this Intel Xeon: the
build with this session's table (results/cpu_xeon.json with the short rows at 2^20 and 2^25
elements; the pick) against s48's (compare), each strategy the median of REPEAT timings, the same
shapes and times for both.   python3 summarize.py > summary.txt   (this folder)"""
import glob, json, math, os

H = os.path.dirname(os.path.abspath(__file__))
n = a = b = same = 0
wa = wb = 1.0
la = lb = 0.0
over = []
files = sorted(glob.glob(f"{H}/choice_check_*.json"))
for f in files:
    d = json.load(open(f))
    for c in d["cases"]:
        t = dict(c["times_us"])
        best = min(t.values())
        ra, rb = t[c["pick"]] / best, t[c["compare_pick"]] / best
        n += 1
        a += ra <= 1.10
        b += rb <= 1.10
        wa, wb = max(wa, ra), max(wb, rb)
        la += math.log(ra)
        lb += math.log(rb)
        same += c["pick"] == c["compare_pick"]
        if ra > 1.10 or rb > 1.10:
            over.append(f"  {os.path.basename(f)[13:17]} {c['pipeline']} {c['dtype']} {c['size']}: "
                        f"s49 {c['pick']} {ra:.2f}x, s48 {c['compare_pick']} {rb:.2f}x, "
                        f"winner {min(t, key=t.get)}")
seeds = ", ".join(os.path.basename(f)[13:17] for f in files)
print(f"s49, this VM: the 2-core Intel Xeon (model 207, AVX-512) of s47 and s48; seeds {seeds}, every "
      f"strategy the median of {d.get('repeat')} timings:")
print(f"  s49's table (results/cpu_xeon.json with the short rows): {a} of {n} within 1.10x ({100 * a / n:.1f}%), "
      f"geometric mean {math.exp(la / n):.3f}, worst {wa:.2f}x")
print(f"  s48's table: {b} of {n} ({100 * b / n:.1f}%), "
      f"geometric mean {math.exp(lb / n):.3f}, worst {wb:.2f}x; the same pick at {same} of {n}")
print("  either over 1.10x:\n" + "\n".join(over))
