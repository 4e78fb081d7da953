#!/usr/bin/env bash
# results/cpu.{json,md,png}, cpu_rows.png, models.json and measured.json: results/cpu.json as it
# stood (s25's assembly: 2026-12-01-cpu-s8's suite, s11's rows, s25's host costs), with its row
# records (softmax, rmsnorm_residual, layernorm) replaced by this session's last run of every CPU
# row variant beside numpy and ONNX Runtime in one process (cpu_rows2.json, commit 16649ce); the CPU
# cost model's leave-one-out table refitted (choice.txt), then the shipped fits over the H200's
# records and the CPU's, as s26 left them.
#   bash results/runs/2026-12-04-cpu-s27/assemble.sh   (from the repository root; needs build/)
set -euo pipefail
run=results/runs/2026-12-04-cpu-s27
stage="$(mktemp -d)"
python3 - "$run" "$stage" <<'PY'
import json, sys
run, stage = sys.argv[1:]
cpu = json.load(open("results/cpu.json"))  # as ef681c4 left it: row records replaced below
rows = json.load(open(f"{run}/cpu_rows2.json"))
row_ops = ("softmax", "rmsnorm_residual", "layernorm")
keep = [r for r in cpu["records"] if r["workload"] not in row_ops]
meta = dict(cpu["meta"], rows=rows["meta"])
json.dump({"meta": meta, "records": keep + rows["records"]}, open(f"{stage}/cpu.json", "w"), indent=1)
PY
build/cli/fuselab tune --fit "$stage/cpu.json" --choice-out "$stage/choice.json" > "$run/choice.txt"
python3 results/report_cpu.py --json "$stage/cpu.json" --choice "$stage/choice.json" --out results
cp "$stage/cpu.json" results/cpu.json
rm -rf "$stage"
build/cli/fuselab tune --fit results/h200.json --fit results/cpu.json \
    --models-out results/models.json --measured-out results/measured.json > /dev/null
