#!/usr/bin/env python3
"""s47: x1's row_grid records as choice_check-style cases (one a pipeline, shape and type: every
strategy's median time there; refusals left out), so that heldout.py can score what the shipped
H100 table picks at shapes it never measured.   python3 to_cases.py > cases.json   (this folder)"""
import collections, glob, json, os

H = os.path.dirname(os.path.abspath(__file__))
cases = collections.OrderedDict()
for f in sorted(glob.glob(f"{H}/grid_*.json")):
    for r in json.load(open(f))["records"]:
        if r.get("error") or not r.get("ok", True):
            continue
        k = (r["workload"], r["size"], r["dtype"])
        cases.setdefault(k, {})[r["name"]] = r["median_us"]
out = []
for (p, s, d), t in cases.items():
    w = min(t, key=t.get)
    out.append({"pipeline": p, "size": s, "dtype": d, "times_us": t, "pick": w, "regret": 1.0})
json.dump({"cases": out}, open(f"{H}/cases.json", "w"), indent=1)
print(len(out), "cases")
