#!/usr/bin/env bash
# results/cpu.json and cpu.md: the committed CPU run (2026-12-01-cpu-s8's suite, 2026-12-02-cpu-s11's
# row reductions beside their peers) plus this session's denser grid of row lengths (cpu_grid.json:
# fuselab's CPU row strategies alone, at 11 row lengths of 2^22 elements and at 8 rows a call), for
# the measured shapes that choose() consults; the suite's own sizes keep s11's records (they sit
# beside s11's peers, one process). The leave-one-out table is refitted over all (choice.txt).
#   bash results/runs/2026-12-02-cpu-s13/assemble.sh   (from the repository root; needs build/)
set -euo pipefail
run=results/runs/2026-12-02-cpu-s13
stage="$(mktemp -d)"
python3 - "$run" "$stage" <<'PY'
import json, sys
run, stage = sys.argv[1:]
doc = json.load(open("results/cpu.json"))
grid = json.load(open(f"{run}/cpu_grid.json"))
doc["records"] = [r for r in doc["records"] if r.get("grid") is None]  # a rerun starts afresh
have = {(r["workload"], r["size"], r.get("dtype")) for r in doc["records"]}
added = [dict(r, grid=True) for r in grid["records"] if (r["workload"], r["size"], r.get("dtype")) not in have]
doc["records"] += added
doc["meta"]["rows_grid"] = dict(grid["meta"], note="records marked grid: fuselab alone, for the choice")
json.dump(doc, open(f"{stage}/cpu.json", "w"), indent=1)
print(f"{len(added)} grid records added")
PY
build/cli/fuselab tune --fit "$stage/cpu.json" --choice-out "$stage/choice.json" > "$run/choice.txt"
python3 results/report_cpu.py --json "$stage/cpu.json" --choice "$stage/choice.json" --out results
cp "$stage/cpu.json" results/cpu.json
rm -rf "$stage"
