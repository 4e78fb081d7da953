#!/usr/bin/env bash
# results/h200.{json,md,png}, h200_rows.png, models.json and measured.json: s19's assembly
# (results/runs/2026-12-03-h200-s19/assemble.sh, every source it names, below) with s20's records
# first (a cell's first record is kept): chunked_row at 16 row lengths and the long-row leaders at
# N = 65536 .. 262144 (c/grid_*.json, c/leaders_*.json), the peers and the copy at N = 65536 and
# 262144 (c/peers_rows.json, first; s19's at the other four N). s20's a/ and b/ candidates are not
# shipped and are left out. s19's sources:
#   - every fused strategy of softmax and layernorm at 16 row lengths, N = 256 .. 262144, the three
#     types (a/grid_*.json, a.sh; the retired staged_keep strategies' records left out), and of
#     rmsnorm_residual (b/grid_rmsnorm_residual.json, b.sh);
#   - the unfused, two-pass and autoscheduled forms at the suite's six N (c/bench_*.json), s18's 24
#     random row shapes in bfloat16 (c/random_*.json), and the peers at the suite's six N
#     (c/peers_rows.json), all from c.sh;
#   - then s17's and s16's row records and s18's random shapes, where this session has none.
#   bash results/runs/2026-12-03-h200-s20/assemble.sh   (from the repository root; needs build/)
set -euo pipefail
s8=results/runs/2026-12-01-h200-s8
s16=results/runs/2026-12-03-h200-s16
s17=results/runs/2026-12-03-h200-s17
s18=results/runs/2026-12-03-h200-s18
s19=results/runs/2026-12-03-h200-s19
s20=results/runs/2026-12-03-h200-s20
run=$s19
stage="$(mktemp -d)"
cat "$s8/machine.txt" > "$stage/machine.txt"
printf '\n(row reductions: 2026-12-03, s20 call c for chunked_row and N = 65536 .. 262144; s19, calls a, b and c; where neither has a record, s16 to s18)\n' >> "$stage/machine.txt"
cat "$s20/c/machine.txt" >> "$stage/machine.txt"
cat "$run/b/machine.txt" >> "$stage/machine.txt"
cp "$s8/bench_cuda.json" "$s8/peers.json" "$s8/torch_graph.json" "$s8/torch_torch.json" "$stage/"
cp "$s20/c/peers_rows.json" "$stage/peers_rows.json"
cp "$run/c/peers_rows.json" "$stage/peers_rows_s19.json"
python3 - "$run" "$s16" "$s17" "$s18" "$stage" "$s20" <<'PY'
import glob, json, sys
run, s16, s17, s18, stage, s20 = sys.argv[1:]
key = lambda r: (r["workload"], r["size"], r["name"], r.get("dtype"), r.get("kind"))
seen, recs, meta = set(), [], None
paths = sorted(glob.glob(f"{s20}/c/grid_*.json")) + sorted(glob.glob(f"{s20}/c/leaders_*.json"))
paths += sorted(glob.glob(f"{run}/a/grid_*.json")) + sorted(glob.glob(f"{run}/b/grid_*.json"))
paths += sorted(glob.glob(f"{run}/c/bench_*.json")) + sorted(glob.glob(f"{run}/c/random_*.json"))
paths += sorted(glob.glob(f"{s17}/c/staged8k_*.json")) + sorted(glob.glob(f"{s17}/b/grid_*.json"))
paths += sorted(glob.glob(f"{s17}/c/grid_*.json")) + sorted(glob.glob(f"{s17}/d/grid_*.json"))
paths += sorted(glob.glob(f"{s16}/b/bench_*.json"))
paths += sorted(glob.glob(f"{s18}/d/random_*.json"))
for path in paths:
    doc = json.load(open(path))
    meta = meta or doc["meta"]
    for r in doc["records"]:
        if r["name"].startswith("staged_keep_"):
            continue  # retired in this session (notes.txt)
        if key(r) not in seen:
            seen.add(key(r)); recs.append(r)
cells = {(r["workload"], r["size"], r.get("dtype", "float32")) for r in recs}
for path in sorted(glob.glob("results/runs/2026-12-02-h200-s13/a/grid_*.json")):
    for r in json.load(open(path))["records"]:
        cell = (r["workload"], r["size"], r.get("dtype", "float32"))
        if cell[2] != "float16" and cell not in cells and key(r) not in seen:
            seen.add(key(r)); recs.append(dict(r, run="2026-12-02-h200-s13"))
json.dump({"meta": meta, "records": recs}, open(f"{stage}/bench_rows.json", "w"))
s8 = json.load(open(f"{stage}/bench_cuda.json"))
json.dump({"meta": s8["meta"], "records": s8["records"] + recs}, open(f"{stage}/bench_all.json", "w"))
co = json.load(open(f"{s18}/a/call_overhead.json"))
co["records"] += json.load(open(f"{s18}/a/overhead_cpp.json"))["records"]
json.dump(co, open(f"{stage}/call_overhead.json", "w"), indent=1)
PY
build/cli/fuselab tune --fit "$stage/bench_all.json" --choice-out "$stage/choice.json" > "$s20/choice.txt"
build/cli/fuselab list --json --target cuda > "$stage/list.json"
rm "$stage/bench_all.json"
python3 results/report.py --run "$stage" --out results
rm -rf "$stage"
build/cli/fuselab tune --fit results/h200.json --fit results/cpu.json \
    --models-out results/models.json --measured-out results/measured.json > /dev/null
