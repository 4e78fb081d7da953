#!/usr/bin/env bash
# results/h100.json (s36): s32's table with c/'s short rows added (19 row lengths from 5 to 151,
# odd or not whole 16-byte vectors in 16-bit, 2^23 elements, every row strategy, three types;
# tools/row_grid.py on an NVIDIA H100 80GB HBM3 with this session's kernels, f0748eb), then the
# leave-one-out table (h100_choice.txt) and measured.json with the three devices. Each cell's
# strategies come from one run, so the choice compares like with like; the s32 cells keep s32's
# kernels' times.
#   bash results/runs/2026-12-06-gpu-s36/assemble_h100.sh   (from the repository root; needs build/)
set -euo pipefail
S=results/runs/2026-12-06-gpu-s36
python3 - "$S" <<'PY'
import glob, json, sys
S = sys.argv[1]
t = json.load(open("results/h100.json"))
have = {(r["workload"], r["size"], r["name"], r.get("dtype")) for r in t["records"]}
added = 0
for p in sorted(glob.glob(f"{S}/c/short_*.json")):
    g = json.load(open(p))
    assert g["meta"]["device"] == t["meta"]["device"], (p, g["meta"]["device"])
    t["meta"]["sources"].append({"file": p, "date": g["meta"]["date"], "argv": g["meta"]["argv"]})
    for r in g["records"]:
        k = (r["workload"], r["size"], r["name"], r.get("dtype"))
        assert k not in have, k
        have.add(k)
        t["records"].append(r)
        added += 1
t["meta"]["notes"].append(f"s36: {S}/c/short_*.json (unaligned short rows, N = 5 to 151) with the "
                          "kernels of f0748eb (identity inits folded, a shuffle tree of 8); the other "
                          "cells keep s32's kernels' times")
json.dump(t, open("results/h100.json", "w"), indent=1)
print(added, "records added", file=sys.stderr)
PY
build/cli/fuselab tune --fit results/h100.json > $S/h100_choice.txt
build/cli/fuselab tune --fit results/h200.json --fit results/cpu.json --fit results/h100.json \
    --measured-out results/measured.json > /dev/null
