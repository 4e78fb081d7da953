#!/usr/bin/env python3
"""s46: what a new shape's first call costs where the far tier decides, against one where a near
shape does, through fuselab.kernel("add_relu") on the CPU (each call: the choice at a shape this
process has not seen, then the kernel on N floats, N < 5000: a microsecond or two). add_relu's
CPU table holds 4096 and longer: N = 262 to 501 is 3.03 to 3.97 units from 4096 (the far tier), N = 3501 to 3979 within 0.23
(near); every shape new to the process. Interleaved, median of 80 each, three rounds; then a
seen shape's call (the process's cache), for the Python layer's own share.
  FUSELAB_LIBRARY=python/fuselab/libfuselab.so .venv/bin/python far_cost/cost.py   (root)"""
import os, statistics, sys, time
sys.path.insert(0, "python")
import numpy as np
import fuselab
k = fuselab.kernel("add_relu", target="cpu")
a = np.random.default_rng(1).uniform(-1, 1, 8192).astype(np.float32)
out = np.empty_like(a)
k(a=a[:4096], b=a[:4096], out=out[:4096])  # the first call in the process
print("first:", k.chosen)
for rnd in range(3):
    far, near = [], []
    for i in range(80):
        for n, acc in ((262 + rnd * 80 + i, far), (3501 + rnd * 160 + 2 * i, near)):
            t = time.perf_counter()
            k(a=a[:n], b=a[:n], out=out[:n])
            acc.append((time.perf_counter() - t) * 1e6)
    k(a=a[:300 + rnd], b=a[:300 + rnd], out=out[:300 + rnd]); cf = k.chosen
    seen = []
    for i in range(200):
        t = time.perf_counter(); k(a=a[:300], b=a[:300], out=out[:300]); seen.append((time.perf_counter() - t) * 1e6)
    print(f"round {rnd}: new shape, far tier: median {statistics.median(far):.1f} us; new shape, near: "
          f"{statistics.median(near):.1f} us; a seen shape: {statistics.median(seen):.1f} us")
print("a far pick:", cf)
