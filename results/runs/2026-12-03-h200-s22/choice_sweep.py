#!/usr/bin/env python3
"""The measured choice (runtime/fuselab/measured.cpp: pick_measured) re-done in Python, to score
its constants on the row pipelines without a rebuild: each measured shape left out of its own
table (as `fuselab tune --fit`'s choice table), and the held-out shapes of choice_check.py runs.

  python3 choice_sweep.py MEASURED.json [--held CHOICE_CHECK.json ...] [--sweep]

MEASURED.json: `fuselab tune --measured-out`'s table (the H200's). Prints, for the shipped
constants (3 neighbours within 3 units, weights 1 / (d + 0.05), M at half weight, alignment 0.25)
and with --sweep for each combination tried, the count within 1.10x, the worst and geometric mean.
"""
import argparse
import itertools
import json
import math

ROWS = ("softmax", "layernorm", "rmsnorm_residual")


def align_class(n):
    k, v = 0, int(n)
    while v > 0 and v % 2 == 0 and k < 8:
        v //= 2
        k += 1
    return k


def pick(shapes, dtype, at, names, skip, P):
    near = []
    for s in shapes:
        if s["dtype"] != dtype or s["size"] == skip:
            continue
        d = 0.0
        for i, (a, b) in enumerate(zip(at, s["at"])):
            d += P["w"][i] * abs(math.log2(a / b)) + P["align"][i] * abs(align_class(a) - align_class(b))
        if sum(1 for n in names if n in s["us"]) >= 2:
            near.append((d, s))
    near.sort(key=lambda x: x[0])
    if not near or near[0][0] > P["near"]:
        return None
    near = [x for x in near[:P["k"]] if x[0] <= P["near"]]
    score = {}
    for d, s in near:
        best = min(s["us"][n] for n in names if n in s["us"])
        w = 1.0 / (d + P["eps"]) ** P["pow"]
        for n in names:
            if n in s["us"]:
                a = score.setdefault(n, [0.0, 0.0])
                a[0] += w * math.log(s["us"][n] / best)
                a[1] += w
    return min(score, key=lambda n: (math.exp(score[n][0] / score[n][1]), n))


def evaluate(table, held, P):
    regrets = []
    for pipe in ROWS:
        shapes = table[pipe]["shapes"]
        for s in shapes:
            names = [n for n, v in s["us"].items() if v > 0]
            if len(names) < 2:
                continue
            p = pick(shapes, s["dtype"], s["at"], names, s["size"], P)
            if p is None:
                continue  # the model's (not scored here)
            regrets.append(("loo", pipe, s["dtype"], s["size"], s["us"][p] / min(s["us"][n] for n in names)))
    for c in held:
        n, m = (int(v) for v in c["size"].split("x"))
        names = list(c["times_us"])
        p = pick(table[c["pipeline"]]["shapes"], c["dtype"], [n, m], names, None, P)
        t = c["times_us"]
        r = t[p] / min(t.values()) if p in t else float("nan")
        regrets.append(("held", c["pipeline"], c["dtype"], c["size"], r))
    return regrets


def summary(regrets, kind):
    r = [x[4] for x in regrets if x[0] == kind]
    if not r:
        return "-"
    within = sum(1 for v in r if v <= 1.10)
    geo = math.exp(sum(math.log(v) for v in r) / len(r))
    return f"{within}/{len(r)} within 1.10x, worst {max(r):.2f}x, geo {geo:.3f}"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("measured")
    ap.add_argument("--device", default="NVIDIA H200")
    ap.add_argument("--held", action="append", default=[])
    ap.add_argument("--sweep", action="store_true")
    ap.add_argument("--show", action="store_true", help="list the misses of the shipped constants")
    opt = ap.parse_args()
    table = json.load(open(opt.measured))["devices"][opt.device]["pipelines"]
    held = [c for f in opt.held for c in json.load(open(f))["cases"]]
    base = dict(k=3, near=3.0, eps=0.05, pow=1.0, w=[1.0, 0.5], align=[0.25, 0.0])
    regrets = evaluate(table, held, base)
    print(f"shipped constants: leave-one-out {summary(regrets, 'loo')}; held-out {summary(regrets, 'held')}")
    if opt.show:
        for x in sorted(regrets, key=lambda x: -x[4]):
            if x[4] > 1.10:
                print("  ", *x[:4], f"{x[4]:.2f}x")
    if opt.sweep:
        rows = []
        for k, wm, al, eps, pw in itertools.product([1, 2, 3, 4, 6], [0.25, 0.5, 0.75, 1.0],
                                                    [0.0, 0.125, 0.25, 0.5], [0.05, 0.2, 0.5], [1.0, 2.0]):
            P = dict(k=k, near=3.0, eps=eps, pow=pw, w=[1.0, wm], align=[al, 0.0])
            r = evaluate(table, held, P)
            loo = [x[4] for x in r if x[0] == "loo"]
            hr = [x[4] for x in r if x[0] == "held"]
            rows.append((sum(v <= 1.10 for v in loo) + sum(v <= 1.10 for v in hr),
                         -sum(math.log(v) for v in loo + hr), P, summary(r, "loo"), summary(r, "held")))
        rows.sort(key=lambda x: (-x[0], -x[1]))
        for n, _, P, a, b in rows[:12]:
            print(f"k={P['k']} M={P['w'][1]} align={P['align'][0]} eps={P['eps']} pow={P['pow']}: loo {a}; held {b}")


if __name__ == "__main__":
    main()
