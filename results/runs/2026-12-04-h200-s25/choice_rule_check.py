#!/usr/bin/env python3
"""The measured choice at one left-out cell under the old rule (the three nearest shapes where at
least two candidates ran) and under s25's (only near shapes where at least 3/4 as many candidates
ran as at the most-measured near shape), a Python copy of runtime/fuselab/measured.cpp's
pick_measured on results/measured.json: the case that made the rule (notes.txt).

    python3 results/runs/2026-12-04-h200-s25/choice_rule_check.py
"""
import json
import math
import os

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..")
NEAR, NEIGHBOURS = 3.0, 3


def align_class(n):
    k, v = 0, int(n)
    while v > 0 and v % 2 == 0 and k < 8:
        v, k = v // 2, k + 1
    return k


def pick(p, dtype, at, names, skip, coverage):
    near = []
    for s in p["shapes"]:
        if s["target"] != "cuda" or s["dtype"] != dtype or s["size"] == skip:
            continue
        d = sum(f["weight"] * abs(math.log2(a / b)) + f["align_weight"] * abs(align_class(a) - align_class(b))
                for f, a, b in zip(p["features"], at, s["at"]))
        ran = sum(n in s["us"] for n in names)
        if ran >= 2 and d <= NEAR:
            near.append((d, s, ran))
    if coverage:
        most = max(r for _, _, r in near)
        near = [x for x in near if 4 * x[2] >= 3 * most]
    near = sorted(near, key=lambda x: x[0])[:NEIGHBOURS]
    score = {}
    for d, s, _ in near:
        best = min(s["us"][n] for n in names if n in s["us"])
        for n in names:
            if n in s["us"]:
                a, w = score.get(n, (0.0, 0.0))
                score[n] = (a + math.log(s["us"][n] / best) / (d + 0.05), w + 1 / (d + 0.05))
    ranked = sorted((math.exp(a / w), n) for n, (a, w) in score.items())
    return ranked[0][1], [(s["size"], round(d, 2), ran) for d, s, ran in near]


def main():
    table = json.load(open(os.path.join(ROOT, "results", "measured.json")))
    p = table["devices"]["NVIDIA H200"]["pipelines"]["softmax"]
    cell = next(s for s in p["shapes"] if s["size"] == "1417x1480" and s["dtype"] == "float32")
    names = sorted(cell["us"])
    best = min(cell["us"], key=cell["us"].get)
    for coverage in (False, True):
        chosen, near = pick(p, "float32", cell["at"], names, cell["size"], coverage)
        print(f"{'s25 rule' if coverage else 'old rule'}: softmax float32 1417x1480 left out: "
              f"{chosen} ({cell['us'][chosen] / cell['us'][best]:.2f}x the winner, {best}); "
              f"nearest (size, distance, candidates measured): {near}")


if __name__ == "__main__":
    main()
