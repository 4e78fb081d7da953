#!/usr/bin/env bash
# s46: results/cpu.{json,md} with the current build's leave-one-out (the far tier), the records as
# they are (s42's assembly's report step, results/runs/2026-12-06-gpu-s42/cpu_table/assemble.sh).
#   bash results/runs/2026-12-07-gpu-s47/cpu_report.sh   (from the repository root; needs build/)
set -euo pipefail
out=results/runs/2026-12-07-gpu-s47
stage="$(mktemp -d)"
python3 - "$stage" <<'PY'
import json, sys
d = json.load(open("results/cpu.json"))
json.dump({"meta": d["meta"], "records": d["records"]}, open(f"{sys.argv[1]}/cpu.json", "w"))
PY
build/cli/fuselab tune --fit "$stage/cpu.json" --choice-out "$stage/choice.json" > "$out/cpu_choice.txt"
.venv/bin/python results/report_cpu.py --json results/cpu.json --choice "$stage/choice.json" --out results
rm -rf "$stage"
