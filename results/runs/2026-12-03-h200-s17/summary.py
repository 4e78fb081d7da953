#!/usr/bin/env python3
"""s17: TB/s at the minimum bytes of each fuselab strategy (regs_<op>.json) beside the peers of the
same call (peers_regs.json), and the copy of that call. Usage: summary.py DIR."""
import collections
import json
import sys

d = sys.argv[1]
peers = json.load(open(f"{d}/peers_regs.json"))["records"]
best = collections.defaultdict(dict)
copy = None
for r in peers:
    if not r.get("ok", True) or not r.get("median_us"):
        continue
    tb = r["min_bytes"] / r["median_us"] / 1e6
    if r["workload"] == "copy":
        copy = tb
        continue
    best[(r["workload"], r["dtype"], int(r["size"].split("x")[0]))][r["name"]] = tb
print(f"copy {copy:.2f} TB/s")
for p in ["softmax", "rmsnorm_residual", "layernorm"]:
    rows = collections.defaultdict(dict)
    for r in json.load(open(f"{d}/regs_{p}.json"))["records"]:
        if r.get("median_us") is None:
            continue
        rows[(p, r["dtype"], int(r["size"].split("x")[0]))][r.get("schedule") or r["name"]] = (
            r["min_bytes"] / r["median_us"] / 1e6)
    for k in sorted(rows):
        ours = " ".join(f"{a} {b:.2f}" for a, b in sorted(rows[k].items()))
        top = max(rows[k].values())
        pk = best.get(k, {})
        theirs = " ".join(f"{a} {b:.2f}" for a, b in sorted(pk.items()))
        ratio = f" | best/peer {top / max(pk.values()):.3f}" if pk else ""
        print(f"{k[0]} {k[1]} N={k[2]}: {ours} (of copy {top / copy:.3f})"
              + (f" | peers: {theirs}{ratio}" if pk else ""))
