#!/usr/bin/env python3
"""s50 (s49's summarize.py): run.sh's seeds summed (choice_check_*.json): the final build
(results/cpu_xeon.json with ../xeon_mid's rows, the Xeon's whole vectors in 16 lanes; the pick)
against s49's (compare), each strategy the median of REPEAT timings, the same shapes and times for
both. Summed apart by VM: seeds 5011, 5012 and 5091 on the first try's Xeon (model 207, the
table's own CPU), the others on the second try's (model 167; ../README.txt).
    python3 summarize.py > summary.txt   (this folder)"""
import glob, json, math, os

H = os.path.dirname(os.path.abspath(__file__))
FIRST = {"5011", "5012", "5091"}
files = sorted(glob.glob(f"{H}/choice_check_*.json"))
groups = [("the first try's Xeon (model 207)", [f for f in files if f[-9:-5] in FIRST]),
          ("the second try's Xeon (model 167)", [f for f in files if f[-9:-5] not in FIRST])]
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
                            f"s50 {c['pick']} {ra:.2f}x, s49 {c['compare_pick']} {rb:.2f}x, "
                            f"winner {min(t, key=t.get)}")
    seeds = ", ".join(os.path.basename(f)[13:17] for f in group)
    print(f"s50, {title}: seeds {seeds}, every strategy the median of {d.get('repeat')} timings:")
    print(f"  s50's build (the mid rows, 16 lanes): {a} of {n} within 1.10x ({100 * a / n:.1f}%), "
          f"geometric mean {math.exp(la / n):.3f}, worst {wa:.2f}x")
    print(f"  s49's build: {b} of {n} ({100 * b / n:.1f}%), "
          f"geometric mean {math.exp(lb / n):.3f}, worst {wb:.2f}x; the same pick at {same} of {n}")
    print("  either over 1.10x:\n" + "\n".join(over) + "\n")
