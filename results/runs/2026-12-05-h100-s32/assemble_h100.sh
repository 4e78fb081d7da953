#!/usr/bin/env bash
# results/h100.json (s32): the H100's row table, every record of this session's row grids on an
# NVIDIA H100 80GB HBM3 (c/: s22's grid of 29 N at 2^23 and 2^25 elements, the suite's six shapes
# and six unnamed ones; d/ and d2/: 15 short N, 4 to 160; tools/row_grid.py, events after an L2
# flush, median of 15), then the leave-one-out table (h100_choice.txt) and measured.json with the
# three devices. models.json keeps the H200's and the CPU's fits only: the H100's rows alone would
# leave its other pipelines with no efficiency, where the H200's fit covers them.
#   bash results/runs/2026-12-05-h100-s32/assemble_h100.sh   (from the repository root; needs build/)
set -euo pipefail
S=results/runs/2026-12-05-h100-s32
python3 - "$S" <<'PY'
import glob, json, sys
S = sys.argv[1]
grids = [(p, json.load(open(p))) for d in ("c", "d", "d2") for p in sorted(glob.glob(f"{S}/{d}/grid_*.json"))]
devices = {g["meta"]["device"] for _, g in grids}
assert len(devices) == 1, devices
meta = dict(grids[0][1]["meta"])
meta.pop("argv", None)
meta["date"] = "2026-12-05"
meta["sources"] = [{"file": p, "date": g["meta"]["date"], "argv": g["meta"]["argv"]} for p, g in grids]
meta["machine"] = open(f"{S}/c/machine.txt").read().splitlines()[:5]
meta["notes"] = ["row grids only: no peer ran on this GPU; the seeds 3201 and 3202 held-out "
                 f"checks are in {S}/c/choice_check_*.json"]
seen, records = set(), []
for _, g in grids:
    for r in g["records"]:
        k = (r["workload"], r["size"], r["name"], r.get("dtype"))
        if k not in seen:
            seen.add(k); records.append(r)
json.dump({"meta": meta, "records": records}, open("results/h100.json", "w"), indent=1)
print(len(records), "records", file=sys.stderr)
PY
build/cli/fuselab tune --fit results/h100.json > $S/h100_choice.txt
build/cli/fuselab tune --fit results/h200.json --fit results/cpu.json \
    --models-out results/models.json > /dev/null
build/cli/fuselab tune --fit results/h200.json --fit results/cpu.json --fit results/h100.json \
    --measured-out results/measured.json > /dev/null
