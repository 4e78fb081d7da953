#!/usr/bin/env python3
"""rows_table.md from this run: fuselab's best strategy (c/ unchecked, b/ checked softmax) beside
each peer of c/peers_rows.json, in TB/s at the minimum bytes.   python3 rows_table.py > rows_table.md"""
import collections
import json
import os

os.chdir(os.path.dirname(os.path.abspath(__file__)))
meta = json.load(open("c/peers_rows.json"))
ceil = meta["meta"]["copy_bandwidth_GBps"] / 1e3
best = collections.defaultdict(dict)


def n_of(size):
    return int(size.split("x")[0])


for src in ("c/bench_rows.json", "b/bench_rows.json"):
    for r in json.load(open(src))["records"]:
        if r.get("kind") != "fuselab" or not r.get("median_us") or r.get("error"):
            continue
        if src.startswith("b") and not r["ok"]:
            continue
        k = (r["workload"], r["dtype"], n_of(r["size"]))
        tb = r["min_bytes"] / r["median_us"] / 1e6
        if "fuselab" not in best[k] or tb > best[k]["fuselab"][0]:
            best[k]["fuselab"] = (tb, r["name"])
for r in meta["records"]:
    if r.get("median_us") and r.get("ok"):
        k = (r["workload"], r["dtype"], n_of(r["size"]))
        tb = r["min_bytes"] / r["median_us"] / 1e6
        if r["name"] not in best[k] or tb > best[k][r["name"]][0]:
            best[k][r["name"]] = (tb, r["name"])
print("Row reductions on the H200, 2026-12-02 (results/runs/2026-12-02-h200-s10): TB/s at the minimum bytes,")
print(f"median of device events after an L2 flush; copy ceiling of the peers' run {ceil:.2f} TB/s. fuselab: its best")
print("strategy (named). Peers: torch eager, torch.compile (static), Liger-Kernel 0.8.5; max-autotune not run.\n")
print("| op | dtype | N | fuselab best | strategy | of ceiling | eager | compile | liger | best peer | fuselab / best peer |")
print("|---|---|---|---|---|---|---|---|---|---|---|")
for k in sorted(best):
    b = best[k]
    if "fuselab" not in b:
        continue
    f = b["fuselab"]
    pe = {n: b[n][0] for n in ("torch_eager", "torch_compile", "liger") if n in b}
    bp = max(pe.values()) if pe else float("nan")
    cell = lambda n: f"{pe[n]:.2f}" if n in pe else "-"  # noqa: E731
    print(f"| {k[0]} | {k[1]} | {k[2]} | {f[0]:.2f} | {f[1]} | {f[0] / ceil:.2f} | {cell('torch_eager')} | "
          f"{cell('torch_compile')} | {cell('liger')} | {bp:.2f} | {f[0] / bp:.2f} |")
