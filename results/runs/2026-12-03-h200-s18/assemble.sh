#!/usr/bin/env bash
# results/h200.{json,md,png}, h200_rows.png, models.json and measured.json: s17's assembly
# (results/runs/2026-12-03-h200-s17/assemble.sh, every source it names) with two changes from s18:
#   - 24 row shapes drawn at random (d/random_*.json, d.sh), every fused row strategy in the three
#     types, as further measured shapes for the choice;
#   - the host cost of a call with the torch ops' C++ kernels (a/call_overhead.json,
#     a/overhead_cpp.json), in place of s17's.
#   bash results/runs/2026-12-03-h200-s18/assemble.sh   (from the repository root; needs build/)
# s17's header follows.
#
# From this session (s17)
# and the sessions whose variants are unchanged since:
#   - the suite of issue 14 from 2026-12-01-h200-s8 (bench, peers, torch);
#   - the row reductions from this session: every fused row strategy on 16 row lengths, N = 256
#     .. 262144, in the three types (b/grid_*.json, b.sh), completed where b.sh's limits cut it
#     (c/grid_*.json: rmsnorm_residual at N >= 12288, softmax and layernorm at 131072 and 262144;
#     d/grid_rmsnorm_residual.json at 262144), staged_row_8k at its new 192 KB limit in softmax
#     and layernorm (c/staged8k_*.json), and the peers at the suite's six N (b/peers_rows.json);
#     a cell's first record is kept, in the order c/staged8k, b, c, d;
#   - the unfused, two-pass and autoscheduled row forms at the suite's six sizes from
#     2026-12-03-h200-s16 (b/bench_*.json): their schedules do not use what s17 changed;
#   - from 2026-12-02-h200-s13 (a/grid_*.json), float32 and bfloat16, the shapes this session did
#     not time: 16 rows of 1024, 16384 and 65536, and N = 128 and 1536 (warp_row, block_row,
#     block_row_wide), so that a call of a few rows has measured shapes near it;
#   - the host cost of a call (b/call_overhead.json, b/overhead_cpp.json: one call, one process
#     each; the C++ layers' records merged in).
# Then `fuselab tune --fit` over the H200 records and the CPU's (results/cpu.json): the shipped
# fits (models.json), the measured shapes (measured.json) and the leave-one-out table (choice.txt).
#   bash results/runs/2026-12-03-h200-s17/assemble.sh   (from the repository root; needs build/)
set -euo pipefail
s8=results/runs/2026-12-01-h200-s8
s16=results/runs/2026-12-03-h200-s16
run=results/runs/2026-12-03-h200-s17
s18=results/runs/2026-12-03-h200-s18
stage="$(mktemp -d)"
cat "$s8/machine.txt" > "$stage/machine.txt"
printf '\n(row reductions: 2026-12-03, s17, calls b, c and d; s18 call d)\n' >> "$stage/machine.txt"
cat "$run/b/machine.txt" >> "$stage/machine.txt"
cp "$s8/bench_cuda.json" "$s8/peers.json" "$s8/torch_graph.json" "$s8/torch_torch.json" "$stage/"
cp "$run/b/peers_rows.json" "$stage/peers_rows.json"
python3 - "$run" "$s16" "$stage" "$s18" <<'PY'
import glob, json, sys
run, s16, stage, s18 = sys.argv[1:]
key = lambda r: (r["workload"], r["size"], r["name"], r.get("dtype"), r.get("kind"))
seen, recs, meta = set(), [], None
paths = sorted(glob.glob(f"{run}/c/staged8k_*.json")) + sorted(glob.glob(f"{run}/b/grid_*.json"))
paths += sorted(glob.glob(f"{run}/c/grid_*.json")) + sorted(glob.glob(f"{run}/d/grid_*.json"))
paths += sorted(glob.glob(f"{s16}/b/bench_*.json"))
paths += sorted(glob.glob(f"{s18}/d/random_*.json"))  # s18: 24 shapes drawn at random
for path in paths:
    doc = json.load(open(path))
    meta = meta or doc["meta"]
    for r in doc["records"]:
        if key(r) not in seen:
            seen.add(key(r)); recs.append(r)
# s13's few-row shapes and further row lengths (N = 128, 1536 and 16 rows of 1024, 16384, 65536:
# warp_row, block_row, block_row_wide), float32 and bfloat16, at the (workload, size, dtype) this
# session did not time: the measured shapes nearest a call of a few rows.
cells = {(r["workload"], r["size"], r.get("dtype", "float32")) for r in recs}
for path in sorted(glob.glob("results/runs/2026-12-02-h200-s13/a/grid_*.json")):
    for r in json.load(open(path))["records"]:
        cell = (r["workload"], r["size"], r.get("dtype", "float32"))
        if cell[2] != "float16" and cell not in cells and key(r) not in seen:
            seen.add(key(r)); recs.append(dict(r, run="2026-12-02-h200-s13"))
json.dump({"meta": meta, "records": recs}, open(f"{stage}/bench_rows.json", "w"))
s8 = json.load(open(f"{stage}/bench_cuda.json"))
json.dump({"meta": s8["meta"], "records": s8["records"] + recs}, open(f"{stage}/bench_all.json", "w"))
co = json.load(open(f"{s18}/a/call_overhead.json"))  # s18: the torch ops' C++ kernels
co["records"] += json.load(open(f"{s18}/a/overhead_cpp.json"))["records"]
json.dump(co, open(f"{stage}/call_overhead.json", "w"), indent=1)
PY
build/cli/fuselab tune --fit "$stage/bench_all.json" --choice-out "$stage/choice.json" > "$s18/choice.txt"
build/cli/fuselab list --json --target cuda > "$stage/list.json"
cp "$stage/bench_all.json" /tmp/bench_all_s18.json && rm "$stage/bench_all.json"
python3 results/report.py --run "$stage" --out results
rm -rf "$stage"
# What the library ships, from the committed files (their names are the tables' sources).
build/cli/fuselab tune --fit results/h200.json --fit results/cpu.json \
    --models-out results/models.json --measured-out results/measured.json > /dev/null
