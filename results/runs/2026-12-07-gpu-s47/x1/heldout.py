#!/usr/bin/env python3
"""s46 (copied in s47): held-out cases picked again offline. Each case of the choice_check JSON files given
(every strategy's time at one shape fuselab never measured) is put alone beside the table it
was picked from, as one more size, and `fuselab tune --fit` picks there with that size's own
records left out (bench/choice.cpp leave_one_out): the same nearest-shape rule choose() runs,
by the CLI given (so a build with other weights can be judged on the same cases, with no GPU).
The regret is against the case's own times.
  python3 heldout.py CLI TABLE.json CASES.json...   (repository root)"""
import json, os, subprocess, sys, tempfile
cli, table, files = sys.argv[1], sys.argv[2], sys.argv[3:]
d = json.load(open(table))
within = n = 0
worst = 1.0
for f in files:
    for c in json.load(open(f))["cases"]:
        recs = [dict(kind="fuselab", workload=c["pipeline"], size=c["size"], name=s, dtype=c["dtype"],
                     target="cuda" if "h100" in table or "h200" in table else "cpu", median_us=us)
                for s, us in c["times_us"].items()]
        with tempfile.TemporaryDirectory() as t:
            json.dump({"meta": d["meta"], "records": d["records"] + recs}, open(f"{t}/b.json", "w"))
            out = subprocess.run([cli, "tune", "--fit", f"{t}/b.json"], capture_output=True, text=True,
                                 env=dict(os.environ, FUSELAB_TUNING_FILE=f"{t}/t.json"), check=True).stdout
        pick = None
        for line in out.splitlines():
            x = line.split()
            if len(x) >= 7 and x[0] == c["pipeline"] and x[1] == c["size"] and x[2] == c["dtype"]:
                pick, by = x[3], x[5]
        r = c["times_us"][pick] / min(c["times_us"].values())
        n += 1; within += r <= 1.10; worst = max(worst, r)
        flag = "" if r <= 1.10 else "  over"
        print(f"{os.path.basename(f):24} {c['pipeline']:17} {c['dtype']:9} {c['size']:12} pick {pick:18} ({by}) {r:.2f}x"
              f"  [as run: {c['pick']} {c['regret']:.2f}x]{flag}", flush=True)
print(f"{within} of {n} within 1.10x, worst {worst:.2f}x")
