#!/usr/bin/env python3
"""s51 (s50's summarize.py): run.sh's seeds summed (choice_check_*.json) on this VM (a 2-core
Intel Xeon, model 167, consulting results/cpu_xeon.json): this session's build (the table with
../xeon_big's rows of 2^26 elements; the pick) against s50's final build (compare), each strategy
the median of REPEAT timings, the same shapes and times for both. Summed apart: the seeds drawn at
2^25 to 2^26.6 elements (5121, 5122, 5192: the new rows' regime) and those at 2^20 to 2^26.
    python3 summarize.py > summary.txt   (this folder)"""
import glob, json, math, os

H = os.path.dirname(os.path.abspath(__file__))
BIG = {"5121", "5122", "5192"}
files = sorted(glob.glob(f"{H}/choice_check_*.json"))
groups = [("2^25 to 2^26.6 elements", [f for f in files if f[-9:-5] in BIG]),
          ("2^20 to 2^26 elements", [f for f in files if f[-9:-5] not in BIG])]
for title, group in groups:
    if not group:
        continue
    n = a = b = same = 0
    wa = wb = 1.0
    la = lb = 0.0
    over = []
    for f in group:
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
                            f"s51 {c['pick']} {ra:.2f}x, s50 {c['compare_pick']} {rb:.2f}x, "
                            f"winner {min(t, key=t.get)}")
    seeds = ", ".join(os.path.basename(f)[13:17] for f in group)
    complete = all(json.load(open(f)).get("complete", True) for f in group)
    print(f"s51, {title}: seeds {seeds}{'' if complete else ' (one cut short)'}, every strategy "
          f"the median of {d.get('repeat')} timings:")
    print(f"  s51's build (the 2^26 rows): {a} of {n} within 1.10x ({100 * a / n:.1f}%), "
          f"geometric mean {math.exp(la / n):.3f}, worst {wa:.2f}x")
    print(f"  s50's build: {b} of {n} ({100 * b / n:.1f}%), "
          f"geometric mean {math.exp(lb / n):.3f}, worst {wb:.2f}x; the same pick at {same} of {n}")
    print("  either over 1.10x:\n" + "\n".join(over) + "\n")
