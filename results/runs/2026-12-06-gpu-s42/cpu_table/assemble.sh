#!/usr/bin/env bash
# results/cpu.{json,md}, cpu_rows.png, models.json and measured.json (s42): the CPU table's row
# cells (softmax, rmsnorm_residual, layernorm; every shape but the suite's own three, whose peers
# were timed beside them) as the median of three passes of rep.sh: s41's pass 1
# (results/runs/2026-12-06-gpu-s41/cpu_table/p1, which s41 shipped alone) and this session's
# passes 2 and 3 (p2/, p3/), the same VM kind, every CPU row strategy and type. Each cell's record
# is its middle run's, with the three runs' times in runs_us. Between pass 1 and passes 2-3 only
# softmax/block_row's CPU code changed (its row scratch on the stack; level at these shapes,
# 0.96 to 1.02x: ../cpu_scan/). Every other record as it was. Then cpu.md and choice.txt (the
# CPU's leave-one-out), the fits and the measured tables.
#   bash results/runs/2026-12-06-gpu-s42/cpu_table/assemble.sh   (from the repository root; build/)
set -euo pipefail
out=results/runs/2026-12-06-gpu-s42/cpu_table
p1=results/runs/2026-12-06-gpu-s41/cpu_table/p1
stage="$(mktemp -d)"
python3 - "$out" "$p1" "$stage" <<'PY'
import glob, json, sys
out, p1, stage = sys.argv[1:]
table = json.load(open("results/cpu.json"))
rows = {"softmax", "layernorm", "rmsnorm_residual"}
suite = {(r["workload"], r["size"]) for r in table["records"] if r.get("kind") == "peer"}
key = lambda r: (r["workload"], r["size"], r["name"], r.get("dtype"), r.get("kind"))
cell = lambda r: (r["workload"], r["size"], r.get("dtype"))
runs, metas = {}, []
for d in (p1, f"{out}/p2", f"{out}/p3"):
    for path in sorted(glob.glob(f"{d}/*.json")):
        g = json.load(open(path))
        assert g["meta"]["device"] == table["meta"]["device"], (path, g["meta"]["device"])
        metas.append(g["meta"])
        for r in g["records"]:
            if r["workload"] in rows and r.get("kind") == "fuselab" and (r["workload"], r["size"]) not in suite:
                runs.setdefault(key(r), []).append(r)
short = [k for k, v in runs.items() if len(v) != 3]
assert not short, short[:5]
new = {}
for k, v in runs.items():
    v = sorted(v, key=lambda r: r["median_us"])
    new[k] = dict(v[1], runs_us=[r["median_us"] for r in v])
cells = {cell(r) for r in new.values()}
old = [r for r in table["records"] if r["workload"] in rows and r.get("kind") == "fuselab"
       and cell(r) in cells]
missing = [key(r) for r in old if key(r) not in new]
assert not missing, missing[:5]
records = [r for r in table["records"] if not (r["workload"] in rows and r.get("kind") == "fuselab"
                                              and cell(r) in cells)]
records += list(new.values())
meta = dict(table["meta"])
meta["notes"] = list(meta.get("notes", [])) + [
    f"row cells but the suite's shapes (s42): the median of three passes of rep.sh ({p1}, "
    f"{out}/p2, {out}/p3; this VM kind, 2026-12-06), in place of s41's pass 1 alone"]
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
