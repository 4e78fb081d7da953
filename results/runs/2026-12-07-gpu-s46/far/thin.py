#!/usr/bin/env python3
"""s46: the far tier (measured.h kMeasuredFar) against the cost model where nothing measured is
near. For each shipped table and K row shapes drawn from it (seeded), the table is thinned: every
record of that pipeline whose shape is within kMeasuredNear (3) of the drawn shape in weighted log2
(N weighs 1, M half: a lower bound of pick_measured's distance) is removed, the drawn shape's own
records kept. Each CLI's `fuselab tune --fit` on the thinned table then picks at the drawn shape
with its own records left out: the build before the far tier by the cost model, the build with it
by the shapes 3 to 6 units away (else the model). Regret: the pick's time over the winner's there.
  python3 results/runs/2026-12-07-gpu-s46/far/thin.py BEFORE_CLI AFTER_CLI [K [RADIUS]] > far/thin.txt
RADIUS (default 3) thins farther: thin_r6.txt compares the model with a build whose kMeasuredFar
was 64 (thin_r6.py's note), where nothing is within 6."""
import json, math, os, random, re, subprocess, sys, tempfile

before, after = sys.argv[1], sys.argv[2]
K = int(sys.argv[3]) if len(sys.argv) > 3 else 40
R = float(sys.argv[4]) if len(sys.argv) > 4 else 3.0  # the thinning radius
ROWS = ("softmax", "layernorm", "rmsnorm_residual")

def loo(cli, path, workload, size):
    with tempfile.TemporaryDirectory() as d:
        out = subprocess.run([cli, "tune", "--fit", path], capture_output=True, text=True,
                             env=dict(os.environ, FUSELAB_TUNING_FILE=f"{d}/t.json"), check=True).stdout
    rows = {}
    for line in out.splitlines():
        f = line.split()
        if len(f) >= 7 and f[0] == workload and f[1] == size:
            rows[f[2]] = (f[3], f[4], f[5], float(f[6].rstrip("x")))
    return rows

def dist(a, b):
    (n0, m0), (n1, m1) = a, b
    return abs(math.log2(n0 / n1)) + 0.5 * abs(math.log2(m0 / m1))

def shape(size):
    n, m = size.split("x")
    return int(n), int(m)

total = {"before": [], "after": []}
for table in ("h200", "h100", "cpu", "cpu_avx2"):
    d = json.load(open(f"results/{table}.json"))
    recs = d["records"]
    sizes = sorted({(r["workload"], r["size"]) for r in recs
                    if r.get("kind") == "fuselab" and r["workload"] in ROWS and r.get("median_us")})
    rng = random.Random(4646)
    drawn = rng.sample(sizes, min(K, len(sizes)))
    res = {"before": [], "after": [], "far": 0}
    for w, s in drawn:
        keep = [r for r in recs if r["workload"] != w or r["size"] == s
                or dist(shape(r["size"]), shape(s)) > R]
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
            json.dump(dict(d, records=keep, choice=[]), f)
        try:
            a, b = loo(before, f.name, w, s), loo(after, f.name, w, s)
        finally:
            os.unlink(f.name)
        for dt in sorted(a):
            if dt not in b:
                continue
            res["before"].append(a[dt][3]); res["after"].append(b[dt][3])
            res["far"] += b[dt][2] == "measured"
            print(f"{table:9} {w:17} {s:12} {dt:9} winner {a[dt][1]:18} model {a[dt][0]:18} {a[dt][3]:5.2f}x"
                  f"   after: {b[dt][0]:18} ({b[dt][2]}) {b[dt][3]:5.2f}x", flush=True)
    for k in ("before", "after"):
        v = res[k]
        print(f"{table} {k:6}: {sum(x <= 1.10 for x in v)} of {len(v)} within 1.10x, "
              f"gm {math.exp(sum(map(math.log, v)) / len(v)):.3f}, worst {max(v):.2f}x"
              + (f"; {res['far']} decided by shapes 3 to 6 units away" if k == "after" else ""), flush=True)
        total[k] += v
for k in ("before", "after"):
    v = total[k]
    print(f"all {k:6}: {sum(x <= 1.10 for x in v)} of {len(v)} within 1.10x, "
          f"gm {math.exp(sum(map(math.log, v)) / len(v)):.3f}, worst {max(v):.2f}x")
