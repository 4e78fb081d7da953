#!/usr/bin/env python3
"""s47: ab.sh's rounds (raw.txt) summed: each (pipeline, size, name) the median of its rounds' times;
fuselab's best strategy over ONNX Runtime's and numpy's.   python3 summarize.py > summary.txt"""
import collections, os, statistics

H = os.path.dirname(os.path.abspath(__file__))
t = collections.defaultdict(list)
rounds = set()
for line in open(f"{H}/raw.txt"):
    k, p, name, size, us = line.split()
    t[(p, size, name)].append(float(us))
    rounds.add(k)
cells = sorted({(p, s) for p, s, _ in t})
print(f"s47 cpu_ort (this 2-core Intel Xeon, model 207, AVX-512), float32: medians of {len(rounds)} "
      "rounds of ab.sh (raw.txt); fuselab's best strategy over each peer")
for p, s in cells:
    med = {n: statistics.median(v) for (pp, ss, n), v in t.items() if (pp, ss) == (p, s)}
    fl = {n: v for n, v in med.items() if n not in ("numpy", "onnxruntime")}
    best = min(fl, key=fl.get)
    ort, npy = med.get("onnxruntime"), med.get("numpy")
    cols = " ".join(f"{n}={v:.0f}" for n, v in sorted(med.items()))
    print(f"{p} {s} {cols}  best={best} best/ort={fl[best] / ort:.2f} best/numpy={fl[best] / npy:.2f}"
          if ort and npy else f"{p} {s} {cols}")
