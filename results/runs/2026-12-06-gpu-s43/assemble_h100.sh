#!/usr/bin/env bash
# results/h100.json (s43): s41's table with every cell s43 timed on an H100 (the build of e061cbf,
# s42's end: s39's exact rows, s40's by_vector cut, s41's staged_row_2k limit) replaced whole:
# each (pipeline, shape, type) of p1/suite_*.json and p1/hidden_*.json (the suite's row lengths
# and five hidden ones at 2^26 elements, beside p1's peers), then of h1/table_*.json and
# h1/hidden_*.json (every row shape of results/h200.json, 187 a pipeline, and ten hidden
# lengths), every fused strategy of the three row pipelines from those runs. Then measured.json
# from the three tables, and h100_choice.txt (the H100's leave-one-out under the shipped rule).
#   bash results/runs/2026-12-06-gpu-s43/assemble_h100.sh   (from the repository root; build/)
set -euo pipefail
S=results/runs/2026-12-06-gpu-s43
python3 - "$S" <<'PY'
import glob, json, sys
S = sys.argv[1]
t = json.load(open("results/h100.json"))
cell = lambda r: (r["workload"], r["size"], r.get("dtype"))
new, cells = [], set()
paths = sorted(glob.glob(f"{S}/p1/suite_*.json")) + sorted(glob.glob(f"{S}/p1/hidden_*.json"))
paths += sorted(glob.glob(f"{S}/h1/table_*.json")) + sorted(glob.glob(f"{S}/h1/hidden_*.json"))
for p in paths:
    g = json.load(open(p))
    assert g["meta"]["device"] == t["meta"]["device"], (p, g["meta"]["device"])
    t["meta"]["sources"].append({"file": p, "date": g["meta"]["date"], "argv": g["meta"]["argv"]})
    mine = {cell(r) for r in g["records"]} - cells  # a cell an earlier file had stays its
    new += [r for r in g["records"] if cell(r) in mine]
    cells |= mine
for c in ("p1", "h1"):
    t["meta"]["machine"].append(open(f"{S}/{c}/machine.txt").read())
old = len(t["records"])
t["records"] = [r for r in t["records"] if cell(r) not in cells] + new
t["meta"]["notes"].append(f"s43: {S}/p1 and h1 replace {len(cells)} cells whole (every fused "
                          "strategy of the three row pipelines, the build of e061cbf)")
json.dump(t, open("results/h100.json", "w"), indent=1)
print(f"{len(cells)} cells replaced: {old} -> {len(t['records'])} records", file=sys.stderr)
PY
build/cli/fuselab tune --fit results/h100.json > $S/h100_choice.txt
build/cli/fuselab tune --fit results/h200.json --fit results/cpu.json --fit results/h100.json \
    --measured-out results/measured.json > /dev/null
