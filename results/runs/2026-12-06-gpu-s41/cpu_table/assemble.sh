#!/usr/bin/env bash
# results/cpu.{json,md}, cpu_rows.png, models.json and measured.json (s41): the CPU table's row
# cells (softmax, rmsnorm_residual, layernorm; every shape but the suite's own three, whose peers
# were timed beside them) replaced whole by p1/ (rep.sh: one pass of every CPU row strategy and
# type at those shapes, this VM kind, 2026-12-06), timed with the CPU rows' new tasks
# (rows_common.h: cpu_rows_per_task); the cells' earlier times were medians of three runs of the
# old tasks, and the choice picked lane_rows where block_row now wins (../cpu_heldout/). Every
# other record as it was. Then cpu.md and choice.txt (the CPU's leave-one-out), the fits and the
# measured tables.
#   bash results/runs/2026-12-06-gpu-s41/cpu_table/assemble.sh   (from the repository root; build/)
set -euo pipefail
out=results/runs/2026-12-06-gpu-s41/cpu_table
stage="$(mktemp -d)"
python3 - "$out" "$stage" <<'PY'
import glob, json, sys
out, stage = sys.argv[1:]
table = json.load(open("results/cpu.json"))
rows = {"softmax", "layernorm", "rmsnorm_residual"}
suite = {(r["workload"], r["size"]) for r in table["records"] if r.get("kind") == "peer"}
key = lambda r: (r["workload"], r["size"], r["name"], r.get("dtype"), r.get("kind"))
cell = lambda r: (r["workload"], r["size"], r.get("dtype"))
new, metas = {}, []
for path in sorted(glob.glob(f"{out}/p1/*.json")):
    g = json.load(open(path))
    assert g["meta"]["device"] == table["meta"]["device"], (path, g["meta"]["device"])
    metas.append(g["meta"])
    for r in g["records"]:
        if r["workload"] in rows and r.get("kind") == "fuselab" and (r["workload"], r["size"]) not in suite:
            new[key(r)] = r
cells = {cell(r) for r in new.values()}
old = [r for r in table["records"] if r["workload"] in rows and r.get("kind") == "fuselab"
       and cell(r) in cells]
missing = [key(r) for r in old if key(r) not in new]
assert not missing, missing[:5]
records = [r for r in table["records"] if not (r["workload"] in rows and r.get("kind") == "fuselab"
                                              and cell(r) in cells)]
records += [dict(r, runs_us=[r["median_us"]]) if r.get("median_us") else r for r in new.values()]
meta = dict(table["meta"])
meta["notes"] = list(meta.get("notes", [])) + [
    f"row cells but the suite's shapes (s41): {out}/p1 (rep.sh, one pass, this VM kind, "
    "2026-12-06), timed with the CPU rows' tasks of one share a thread (cpu_rows_per_task), in "
    "place of the medians of three runs of the earlier tasks"]
meta["grid"] = list(meta.get("grid", [])) + metas
json.dump({"meta": meta, "records": records}, open(f"{stage}/cpu.json", "w"), indent=1)
print(f"{len(cells)} cells replaced ({len(old)} records -> {len(new)})", file=sys.stderr)
PY
build/cli/fuselab tune --fit "$stage/cpu.json" --choice-out "$stage/choice.json" > "$out/choice.txt"
.venv/bin/python results/report_cpu.py --json "$stage/cpu.json" --choice "$stage/choice.json" --out results
cp "$stage/cpu.json" results/cpu.json
rm -rf "$stage"
build/cli/fuselab tune --fit results/h200.json --fit results/cpu.json \
    --models-out results/models.json > /dev/null
build/cli/fuselab tune --fit results/h200.json --fit results/cpu.json --fit results/h100.json \
    --measured-out results/measured.json > /dev/null
