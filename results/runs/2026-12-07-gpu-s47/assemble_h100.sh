#!/usr/bin/env bash
# results/h100.json (s47): s43's table with every cell x1/ timed on an H100 added (none of them
# was in it: x1/README.txt), whole: each (pipeline, shape, type) of x1/grid_*.json, every fused
# strategy of the three row pipelines (the build of 753d83e with this session's runtime change
# uncommitted; CUDA kernels as s42's, which s43's records timed). Then measured.json from the four
# tables (as s46's assemble.sh writes it), and h100_choice.txt (the H100's leave-one-out under
# the shipped rule).
#   bash results/runs/2026-12-07-gpu-s47/assemble_h100.sh   (from the repository root; build/)
set -euo pipefail
S=results/runs/2026-12-07-gpu-s47
python3 - "$S" <<'PY'
import glob, json, sys
S = sys.argv[1]
t = json.load(open("results/h100.json"))
cell = lambda r: (r["workload"], r["size"], r.get("dtype"))
had = {cell(r) for r in t["records"]}
new, cells = [], set()
for p in sorted(glob.glob(f"{S}/x1/grid_*.json")):
    g = json.load(open(p))
    assert g["meta"]["device"] == t["meta"]["device"], (p, g["meta"]["device"])
    t["meta"]["sources"].append({"file": p, "date": g["meta"]["date"], "argv": g["meta"]["argv"]})
    mine = {cell(r) for r in g["records"]} - cells
    new += [r for r in g["records"] if cell(r) in mine]
    cells |= mine
assert not cells & had, sorted(cells & had)[:5]
t["meta"]["machine"].append(open(f"{S}/x1/machine.txt").read())
old = len(t["records"])
t["records"] = t["records"] + new
t["meta"]["notes"].append(f"s47: {S}/x1 adds {len(cells)} cells (every fused strategy of the "
                          "three row pipelines at 16-bit-unaligned and few-long-row shapes)")
json.dump(t, open("results/h100.json", "w"), indent=1)
print(f"{len(cells)} cells added: {old} -> {len(t['records'])} records", file=sys.stderr)
PY
build/cli/fuselab tune --fit results/h100.json > $S/h100_choice.txt
build/cli/fuselab tune --fit results/h200.json --fit results/cpu.json --fit results/h100.json \
    --fit results/cpu_avx2.json --measured-out results/measured.json > /dev/null
