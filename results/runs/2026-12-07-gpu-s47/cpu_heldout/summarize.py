#!/usr/bin/env python3
"""s47: run.sh's seeds summed (choice_check_*.json) on this Intel Xeon, which no shipped table
names: the build where such a CPU consults every shipped CPU table (the pick) against HEAD's
before it (compare: the cost model), each strategy the median of REPEAT timings. The winner is
the fastest shipped strategy: the two experiments that were in the build (xp_pf_block,
xp_pf_recomp: CPU-only prefetch trials, never picked) are left out of it, and their times beside
block_row's and recompute_row's are summed at the end.
    python3 summarize.py > summary.txt   (this folder)"""
import glob, json, math, os, statistics

H = os.path.dirname(os.path.abspath(__file__))
n = a = b = same = 0
wa = wb = 1.0
la = lb = 0.0
over, pf = [], {"xp_pf_block": [], "xp_pf_recomp": []}
for f in sorted(glob.glob(f"{H}/choice_check_*.json")):
    d = json.load(open(f))
    for c in d["cases"]:
        t = dict(c["times_us"])
        shipped = {k: v for k, v in t.items() if not k.startswith("xp_")}
        best = min(shipped.values())
        ra, rb = t[c["pick"]] / best, t[c["compare_pick"]] / best
        n += 1
        a += ra <= 1.10
        b += rb <= 1.10
        wa, wb = max(wa, ra), max(wb, rb)
        la += math.log(ra)
        lb += math.log(rb)
        same += c["pick"] == c["compare_pick"]
        seed = os.path.basename(f)[13:17]
        if ra > 1.3 or rb > 1.3:
            over.append(f"  {seed} {c['pipeline']} {c['dtype']} {c['size']}: tables {c['pick']} "
                        f"{ra:.2f}x, model {c['compare_pick']} {rb:.2f}x, winner "
                        f"{min(shipped, key=shipped.get)}")
        for x, base in (("xp_pf_block", "block_row"), ("xp_pf_recomp", "recompute_row")):
            if x in t and base in t:
                pf[x].append(t[x] / t[base])
print(f"s47, this VM: a 2-core Intel Xeon (model 207, AVX-512), no shipped table of its own; "
      f"seeds {', '.join(os.path.basename(f)[13:17] for f in sorted(glob.glob(f'{H}/choice_check_*.json')))}, "
      f"every strategy the median of {d.get('repeat')} timings:")
print(f"  every CPU table, AVX-512 ones first (this change): {a} of {n} within 1.10x "
      f"({100 * a / n:.1f}%), geometric mean {math.exp(la / n):.3f}, worst {wa:.2f}x")
print(f"  the cost model (HEAD before it): {b} of {n} ({100 * b / n:.1f}%), geometric mean "
      f"{math.exp(lb / n):.3f}, worst {wb:.2f}x; the same pick at {same} of {n}")
print("  either over 1.3x:\n" + "\n".join(over))
for x, r in pf.items():
    if r:
        print(f"  {x} over its base's time, {len(r)} cases: median {statistics.median(r):.2f}, "
              f"min {min(r):.2f}, max {max(r):.2f}")
