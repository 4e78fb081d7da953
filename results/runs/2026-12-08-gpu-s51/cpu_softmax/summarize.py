#!/usr/bin/env python3
"""s51: ab.sh's rounds (raw.txt) summed: each (pipeline, size, strategy or peer)'s median over the
rounds, and softmax's fastest fuselab strategy over ONNX Runtime's time.
    python3 summarize.py > summary.txt   (this folder)"""
import collections, os, statistics

H = os.path.dirname(os.path.abspath(__file__))
t = collections.defaultdict(list)
for line in open(f"{H}/raw.txt"):
    f = line.split()
    if len(f) >= 5 and f[0].isdigit():
        t[(f[1], f[3], f[2])].append(float(f[4]))
med = {k: statistics.median(v) for k, v in t.items()}
for (p, size) in sorted({(k[0], k[1]) for k in med}):
    row = {k[2]: v for k, v in med.items() if k[:2] == (p, size)}
    text = " ".join(f"{n}={v:.0f}" for n, v in sorted(row.items(), key=lambda kv: kv[1]))
    extra = ""
    if p == "softmax" and "onnxruntime" in row:
        ours = {n: v for n, v in row.items() if n not in ("numpy", "onnxruntime")}
        best = min(ours, key=ours.get)
        extra = f"  best={best} best/ort={ours[best] / row['onnxruntime']:.2f}"
    print(f"{p} {size}: {text}{extra}")
