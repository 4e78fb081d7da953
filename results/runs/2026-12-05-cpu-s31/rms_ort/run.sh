#!/usr/bin/env bash
# s31: rmsnorm_residual float32 at the CPU suite's N = 4096 and 65536 (2^22 elements) beside the
# CPU peers, ROUNDS rounds of the same command, one process each: cpu.md's two cells where
# fuselab's best trails ONNX Runtime by under 2% (2313.7 against 2268.2 us, 2249.9 against 2237.6).
#   bash results/runs/2026-12-05-cpu-s31/rms_ort/run.sh [ROUNDS]   (from the repository root)
set -uo pipefail
R=results/runs/2026-12-05-cpu-s31/rms_ort
for k in $(seq "${1:-5}"); do
    ./fuselab bench --target cpu --pipeline rmsnorm_residual --dtype float32 --size 4096x1024 \
        --size 65536x64 --json $R/round_$k.json > $R/round_$k.txt 2> $R/round_$k.err
    echo "round $k: exit $?"
done
python3 - "$R" <<'PY'
import glob, json, statistics as st, sys
R = sys.argv[1]
t = {}
for p in sorted(glob.glob(f"{R}/round_*.json")):
    for r in json.load(open(p))["records"]:
        if r.get("median_us"):
            t.setdefault((r["size"], r["name"]), []).append(r["median_us"])
for size in ("4096x1024", "65536x64"):
    rows = {n: v for (s, n), v in t.items() if s == size}
    best = min(rows, key=lambda n: st.median(rows[n]))
    print(size, "  ".join(f"{n} {st.median(v):.1f}" for n, v in sorted(rows.items(), key=lambda kv: st.median(kv[1]))))
    ort = [n for n in rows if "onnx" in n]
    fus = [n for n in rows if n in ("block_row", "lane_rows", "two_pass", "unfused")]
    fb = min(fus, key=lambda n: st.median(rows[n]))
    for o in ort:
        per = [a / b for a, b in zip(rows[o], rows[fb])]
        print(f"  {o} over {fb}: median of rounds {st.median(rows[o]) / st.median(rows[fb]):.3f}; per round {' '.join(f'{x:.3f}' for x in per)}")
PY
