#!/usr/bin/env bash
# results/h100.json (s41): s40's table with the cells f1/ timed on an H100 with the final build
# replaced whole (each (pipeline, shape, type) of f1/long32_*.json and long16_*.json: every fused
# strategy of softmax and layernorm from that one run, at the table's shapes where staged_row_2k
# newly runs: float32 N in (10240, 49152], 16-bit N in (20480, 98304]). Then measured.json from
# the three tables, and h100_choice.txt (the H100's leave-one-out under the shipped rule).
#   bash results/runs/2026-12-06-gpu-s41/assemble_h100.sh   (from the repository root; build/)
set -euo pipefail
S=results/runs/2026-12-06-gpu-s41
python3 - "$S" <<'PY'
import glob, json, sys
S = sys.argv[1]
t = json.load(open("results/h100.json"))
cell = lambda r: (r["workload"], r["size"], r.get("dtype"))
new, cells = [], set()
for p in sorted(glob.glob(f"{S}/f1/long*_*.json")):
    g = json.load(open(p))
    assert g["meta"]["device"] == t["meta"]["device"], (p, g["meta"]["device"])
    t["meta"]["sources"].append({"file": p, "date": g["meta"]["date"], "argv": g["meta"]["argv"]})
    new += g["records"]
    cells |= {cell(r) for r in g["records"]}
old = len(t["records"])
t["records"] = [r for r in t["records"] if cell(r) not in cells] + new
t["meta"]["notes"].append(f"s41: {S}/f1/long*_*.json replace {len(cells)} cells whole (every fused "
                          "softmax and layernorm strategy, the final build, where staged_row_2k "
                          "newly holds rows up to 192 KB)")
json.dump(t, open("results/h100.json", "w"), indent=1)
print(f"{len(cells)} cells replaced: {old} -> {len(t['records'])} records", file=sys.stderr)
PY
build/cli/fuselab tune --fit results/h100.json > $S/h100_choice.txt
build/cli/fuselab tune --fit results/h200.json --fit results/cpu.json --fit results/h100.json \
    --measured-out results/measured.json > /dev/null
