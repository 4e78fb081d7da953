#!/usr/bin/env bash
# results/h200.{json,md,png} and h200_rows.png from two sessions: the suite of issue 14 from
# 2026-12-01-h200-s8 (its variants are unchanged since), the row reductions and the call overhead
# from this session (s11). Each ratio against a peer is within one session (the rows' fuselab
# bench and their peers share b/; layernorm's bench is c/, the same session's next call).
#   bash results/runs/2026-12-02-h200-s11/assemble.sh   (from the repository root; needs build/)
set -euo pipefail
s8=results/runs/2026-12-01-h200-s8
s11=results/runs/2026-12-02-h200-s11
stage="$(mktemp -d)"
cat "$s8/machine.txt" > "$stage/machine.txt"
printf '\n(row reductions, call overhead: 2026-12-02, s11)\n' >> "$stage/machine.txt"
cat "$s11/b/machine_bench_rows.txt" >> "$stage/machine.txt"
cp "$s8/bench_cuda.json" "$s8/peers.json" "$s8/torch_graph.json" "$s8/torch_torch.json" "$stage/"
cp "$s11/b/peers_rows.json" "$stage/peers_rows.json"
cp "$s11/c/peers_rows_autotune.json" "$stage/peers_rows_autotune.json"
cp "$s11/d/peers_rows_autotune.json" "$stage/peers_rows_autotune16.json"
cp "$s11/a/call_overhead.json" "$stage/call_overhead.json"
# The rows' records: b/ (softmax, rmsnorm_residual) and c/ (layernorm), one file.
python3 - "$s11" "$stage" <<'PY'
import json, sys
s11, stage = sys.argv[1:]
b = json.load(open(f"{s11}/b/bench_rows.json"))
c = json.load(open(f"{s11}/c/bench_ln.json"))
key = lambda r: (r["workload"], r["size"], r["name"], r.get("dtype"), r.get("kind"))
seen, recs = set(), []
for r in b["records"] + c["records"]:
    if key(r) not in seen:
        seen.add(key(r)); recs.append(r)
json.dump({"meta": b["meta"], "records": recs}, open(f"{stage}/bench_rows.json", "w"))
s8 = json.load(open(f"{stage}/bench_cuda.json"))
json.dump({"meta": s8["meta"], "records": s8["records"] + recs}, open(f"{stage}/bench_all.json", "w"))
PY
# The cost model's leave-one-out table over every workload of both (issue 22).
build/cli/fuselab tune --fit "$stage/bench_all.json" --choice-out "$stage/choice.json" > "$s11/choice.txt"
build/cli/fuselab list --json --target cuda > "$stage/list.json"
rm "$stage/bench_all.json"
python3 results/report.py --run "$stage" --out results
rm -rf "$stage"
