#!/usr/bin/env bash
# s30: s29's assemble.sh with s30's grid (grid.sh: more sizes the suite does not name, where s29's
# left a size with no measured neighbour) added to s29's suite and grid, the same machine kind
# (2-core AMD EPYC VM, machine.txt of each run). results/cpu.{json,md,png}, cpu_rows.png,
# models.json and measured.json; the CPU leave-one-out table in s30's choice.txt.
#   bash results/runs/2026-12-05-cpu-s30/assemble.sh   (from the repository root; needs build/)
set -euo pipefail
run=results/runs/2026-12-05-cpu-s29
more=results/runs/2026-12-05-cpu-s30
stage="$(mktemp -d)"
python3 - "$run" "$more" "$stage" <<'PY'
import glob, json, sys
run, more, stage = sys.argv[1:]
old = json.load(open("results/cpu.json"))
suite = json.load(open(f"{run}/suite.json"))
grids = [json.load(open(p)) for p in sorted(glob.glob(f"{run}/grid_*.json")) + sorted(glob.glob(f"{more}/grid_*.json"))]
for g in grids:
    assert g["meta"]["device"] == suite["meta"]["device"], g["meta"]["device"]
meta = dict(suite["meta"])
meta["call_overhead"] = old["meta"].get("call_overhead", [])
meta["grid"] = [g["meta"] for g in grids]
meta["notes"] = [f"suite and grid: {run} (suite.json, grid_*.json) and more grid sizes from {more} (grid_*.json), the same 2-core AMD EPYC VM kind, 2026-12-05; "
                 "the host costs of a call: their sources below"]
records = suite["records"]
seen = {(r["workload"], r["size"], r["name"], r.get("dtype"), r.get("kind")) for r in records}
for g in grids:
    for r in g["records"]:
        k = (r["workload"], r["size"], r["name"], r.get("dtype"), r.get("kind"))
        if k not in seen:
            seen.add(k); records.append(r)
records += [r for r in old["records"] if r.get("kind") == "call_overhead"]
json.dump({"meta": meta, "records": records}, open(f"{stage}/cpu.json", "w"), indent=1)
PY
build/cli/fuselab tune --fit "$stage/cpu.json" --choice-out "$stage/choice.json" > "$more/choice.txt"
python3 results/report_cpu.py --json "$stage/cpu.json" --choice "$stage/choice.json" --out results
cp "$stage/cpu.json" results/cpu.json
rm -rf "$stage"
build/cli/fuselab tune --fit results/h200.json --fit results/cpu.json \
    --models-out results/models.json --measured-out results/measured.json > /dev/null
