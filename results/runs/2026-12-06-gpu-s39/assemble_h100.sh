#!/usr/bin/env bash
# results/h100.json (s39): s38's table (as at 2327ea0) with the cells of g2/exact_*.json, then
# g5/exact_*.json, replaced whole (each (pipeline, shape, type): every row strategy's record from
# one run, an H100, the build with Form::exact): the six row shapes whose N is one of the exact
# lengths (2048x32768, 4096x16, 4096x16384, 8192x8192, 16384x16, 16384x4096; the table held two
# of them); then measured.json from the three tables, and h100_choice.txt (the H100's
# leave-one-out under the shipped rule).
#   git show 2327ea0:results/h100.json > results/h100.json
#   bash results/runs/2026-12-06-gpu-s39/assemble_h100.sh   (from the repository root; build/)
set -euo pipefail
S=results/runs/2026-12-06-gpu-s39
python3 - "$S" <<'PY'
import glob, json, sys
S = sys.argv[1]
t = json.load(open("results/h100.json"))
# g5/'s files (the final build: layernorm staged_row_wide's exact kernels too) replace g2/'s
# cells of the same pipeline whole.
cell = lambda r: (r["workload"], r["size"], r.get("dtype"))
by_cell = {}
for p in sorted(glob.glob(f"{S}/g2/exact_*.json")) + sorted(glob.glob(f"{S}/g5/exact_*.json")):
    g = json.load(open(p))
    assert g["meta"]["device"] == t["meta"]["device"], (p, g["meta"]["device"])
    t["meta"]["sources"].append({"file": p, "date": g["meta"]["date"], "argv": g["meta"]["argv"]})
    mine = {}
    for r in g["records"]:
        mine.setdefault(cell(r), []).append(r)
    by_cell.update(mine)
new = [r for rs in by_cell.values() for r in rs]
cells = set(by_cell)
before = len(t["records"])
t["records"] = [r for r in t["records"] if (r["workload"], r["size"], r.get("dtype")) not in cells]
removed = before - len(t["records"])
t["records"] += new
t["meta"]["notes"].append(f"s39: {S}/g2/exact_*.json replace {len(cells)} cells whole (every row "
                          "strategy, the build with Form::exact: rows of exactly 2048 to 16384 "
                          "elements in kernels of their own); the other cells keep earlier kernels' "
                          "times")
json.dump(t, open("results/h100.json", "w"), indent=1)
print(f"{removed} records removed, {len(new)} added, {len(cells)} cells", file=sys.stderr)
PY
build/cli/fuselab tune --fit results/h100.json > $S/h100_choice.txt
build/cli/fuselab tune --fit results/h200.json --fit results/cpu.json --fit results/h100.json \
    --measured-out results/measured.json > /dev/null
