#!/usr/bin/env bash
# results/h200.{json,md,png}, h200_rows.png, models.json and measured.json from this session (s16)
# and the sessions whose variants are unchanged since:
#   - the suite of issue 14 from 2026-12-01-h200-s8 (bench, peers, torch);
#   - the row reductions from this session's timing call (b/: bench.sh): every fused row strategy
#     but warp_regs_1k on the grid of row lengths (grid_*.json), the unfused, two-pass and
#     autoscheduled forms at the suite's six sizes (bench_*.json), and the peers (peers_rows.json,
#     rebuilt from that call's log by peers_from_log.py); and its fourth call (d/: d.sh):
#     warp_regs_1k beside warp_row, block_row_2k and staged_row_2k at N = 256, 512, 1000 and
#     1024, with the peers at N = 256 and 1024 again. Where both calls timed a strategy at a size,
#     d/'s record is kept (so each of those four strategies' figures there come from one call, the
#     peers' too); the other strategies at those sizes (block_row, block_row_wide, block_row_4k,
#     staged_row_8k: 3 to 30x slower there) are b/'s;
#   - the choice's further row lengths from 2026-12-02-h200-s13 (a/grid_*.json: warp_row, block_row,
#     block_row_wide at N = 128, 1536, 6144, 12288 and at 16 rows of 1024, 16384 and 65536), float32
#     and bfloat16 only, at the sizes s16 did not time: those strategies' CUDA code for contiguous
#     rows of a multiple of 8 elements has not changed since but for float16's conversions (s15);
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
printf '(warp_regs_1k and the peers at N = 256 and 1024: the same session'"'"'s fourth call, d/)\n' >> "$stage/machine.txt"
printf '(the rows at N = 128, 1536, 6144, 12288 and 16 rows of 1024, 16384, 65536: 2026-12-02-h200-s13)\n' >> "$stage/machine.txt"
cp "$s8/bench_cuda.json" "$s8/peers.json" "$s8/torch_graph.json" "$s8/torch_torch.json" "$stage/"
# report.py reads peers_rows*.json in name order, the first record of a cell kept: d/'s first.
cp "$run/d/peers_regs.json" "$stage/peers_rows_a.json"
cp "$run/b/peers_rows.json" "$stage/peers_rows_b.json"
cp "$s11/a/call_overhead.json" "$stage/call_overhead.json"
python3 - "$run" "$stage" <<'PY'
import glob, json, sys
run, stage = sys.argv[1:]
key = lambda r: (r["workload"], r["size"], r["name"], r.get("dtype"), r.get("kind"))
seen, recs, meta = set(), [], None
paths = sorted(glob.glob(f"{run}/d/regs_*.json")) + sorted(glob.glob(f"{run}/b/grid_*.json"))
paths += sorted(glob.glob(f"{run}/b/bench_*.json"))
for path in paths:
    doc = json.load(open(path))
    meta = meta or doc["meta"]
    for r in doc["records"]:
        if key(r) not in seen:
            seen.add(key(r)); recs.append(r)
# s13's grid at the (workload, size, dtype) this session did not time, float32 and bfloat16.
cells = {(r["workload"], r["size"], r.get("dtype", "float32")) for r in recs}
for path in sorted(glob.glob("results/runs/2026-12-02-h200-s13/a/grid_*.json")):
    for r in json.load(open(path))["records"]:
        cell = (r["workload"], r["size"], r.get("dtype", "float32"))
        if cell[2] != "float16" and cell not in cells and key(r) not in seen:
            seen.add(key(r)); recs.append(dict(r, run="2026-12-02-h200-s13"))
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
