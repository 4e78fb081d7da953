#!/usr/bin/env bash
# results/h200.{json,md,png}, h200_rows.png, models.json and measured.json from this session (s16)
# and the sessions whose variants are unchanged since:
#   - the suite of issue 14 from 2026-12-01-h200-s8 (bench, peers, torch);
#   - the row reductions from this session's timing call (b/: bench.sh): every fused row strategy
#     on the grid of row lengths (grid_*.json), the unfused, two-pass and autoscheduled forms at
#     the suite's six sizes (bench_*.json), and the peers (peers_rows.json), one call, one machine;
#     and the grid's further lengths from its third call (c/grid_*.json), every fused strategy there;
#   - the call overhead of 2026-12-02-h200-s11 (issue 28: the runtime's call path is unchanged
#     in what it measures).
# Then `fuselab tune --fit` over the H200 records and the CPU's (results/cpu.json): the shipped
# fits (models.json), the measured shapes (measured.json) and the leave-one-out table (choice.txt).
#   bash results/runs/2026-12-03-h200-s16/assemble.sh   (from the repository root; needs build/)
set -euo pipefail
s8=results/runs/2026-12-01-h200-s8
s11=results/runs/2026-12-02-h200-s11
run=results/runs/2026-12-03-h200-s16
stage="$(mktemp -d)"
cat "$s8/machine.txt" > "$stage/machine.txt"
printf '\n(row reductions: 2026-12-03, s16)\n' >> "$stage/machine.txt"
cat "$run/b/machine.txt" >> "$stage/machine.txt"
cp "$s8/bench_cuda.json" "$s8/peers.json" "$s8/torch_graph.json" "$s8/torch_torch.json" "$stage/"
cp "$run/b/peers_rows.json" "$stage/peers_rows.json"
cp "$s11/a/call_overhead.json" "$stage/call_overhead.json"
python3 - "$run" "$stage" <<'PY'
import glob, json, sys
run, stage = sys.argv[1:]
key = lambda r: (r["workload"], r["size"], r["name"], r.get("dtype"), r.get("kind"))
seen, recs, meta = set(), [], None
paths = sorted(glob.glob(f"{run}/b/grid_*.json")) + sorted(glob.glob(f"{run}/b/bench_*.json"))
paths += sorted(glob.glob(f"{run}/c/grid_*.json"))
for path in paths:
    doc = json.load(open(path))
    meta = meta or doc["meta"]
    for r in doc["records"]:
        if key(r) not in seen:
            seen.add(key(r)); recs.append(r)
json.dump({"meta": meta, "records": recs}, open(f"{stage}/bench_rows.json", "w"))
s8 = json.load(open(f"{stage}/bench_cuda.json"))
json.dump({"meta": s8["meta"], "records": s8["records"] + recs}, open(f"{stage}/bench_all.json", "w"))
PY
build/cli/fuselab tune --fit "$stage/bench_all.json" --choice-out "$stage/choice.json" > "$run/choice.txt"
build/cli/fuselab list --json --target cuda > "$stage/list.json"
rm "$stage/bench_all.json"
python3 results/report.py --run "$stage" --out results
rm -rf "$stage"
# What the library ships, from the committed files (their names are the tables' sources).
build/cli/fuselab tune --fit results/h200.json --fit results/cpu.json \
    --models-out results/models.json --measured-out results/measured.json > /dev/null
