#!/usr/bin/env bash
# results/cpu.{json,md,png}, cpu_rows.png, models.json and measured.json (s31): s30's measurements
# (results/runs/2026-12-05-cpu-s30: suite.json, the 49-size grid grid_*.json, and m/grid_rows_m*.json,
# the row strategies at 2^25 and 2^19 elements) and s31's m/grid_rows_m*.json (the same at 2^21 and
# 2^23; this VM kind, a session later), all in the table: with the CPU's element-count feature
# (suite/rows.cpp) the shapes of other sizes help the choice where without it they hurt
# (choice_weights.txt). s30's assemble.sh otherwise; the leave-one-out table goes to this run's
# choice.txt.
set -euo pipefail
run=results/runs/2026-12-05-cpu-s30
out=results/runs/2026-12-05-cpu-s31
stage="$(mktemp -d)"
python3 - "$run" "$stage" <<'PY'
import glob, json, sys
run, stage = sys.argv[1:]
old = json.load(open("results/cpu.json"))
suite = json.load(open(f"{run}/suite.json"))
grids = [json.load(open(p)) for p in sorted(glob.glob(f"{run}/grid_*.json") + glob.glob(f"{run}/m/grid_*.json")
                                  + glob.glob("results/runs/2026-12-05-cpu-s31/m/grid_*.json"))]
for g in grids:
    assert g["meta"]["device"] == suite["meta"]["device"], g["meta"]["device"]
meta = dict(suite["meta"])
meta["call_overhead"] = old["meta"].get("call_overhead", [])
meta["grid"] = [g["meta"] for g in grids]
meta["notes"] = [f"suite and grid: {run} (suite.json, grid_*.json, m/grid_*.json) and results/runs/2026-12-05-cpu-s31/m (grid_*.json); "
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
build/cli/fuselab tune --fit "$stage/cpu.json" --choice-out "$stage/choice.json" > "$out/choice.txt"
python3 results/report_cpu.py --json "$stage/cpu.json" --choice "$stage/choice.json" --out results
cp "$stage/cpu.json" results/cpu.json
rm -rf "$stage"
build/cli/fuselab tune --fit results/h200.json --fit results/cpu.json \
    --models-out results/models.json --measured-out results/measured.json > /dev/null
