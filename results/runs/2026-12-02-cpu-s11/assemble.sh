#!/usr/bin/env bash
# results/cpu.{json,md,png} and cpu_rows.png: the suite of 2026-12-01-cpu-s8 (its CPU variants are
# unchanged since) and this run's row reductions (cpu_rows.json: fuselab and the CPU peers, one
# process); the cost model's leave-one-out table refitted over both (choice.txt).
#   bash results/runs/2026-12-02-cpu-s11/assemble.sh   (from the repository root; needs build/)
set -euo pipefail
s8=results/runs/2026-12-01-cpu-s8
run=results/runs/2026-12-02-cpu-s11
stage="$(mktemp -d)"
python3 - "$s8" "$run" "$stage" <<'PY'
import json, sys
s8, run, stage = sys.argv[1:]
suite = json.load(open(f"{s8}/cpu.json"))
rows = json.load(open(f"{run}/cpu_rows.json"))
keep = [r for r in suite["records"] if r["workload"] not in ("softmax", "rmsnorm_residual", "layernorm")]
meta = dict(suite["meta"], rows=rows["meta"])
json.dump({"meta": meta, "records": keep + rows["records"]}, open(f"{stage}/cpu.json", "w"), indent=1)
PY
build/cli/fuselab tune --fit "$stage/cpu.json" --choice-out "$stage/choice.json" > "$run/choice.txt"
python3 results/report_cpu.py --json "$stage/cpu.json" --choice "$stage/choice.json" --out results
cp "$stage/cpu.json" results/cpu.json
rm -rf "$stage"
