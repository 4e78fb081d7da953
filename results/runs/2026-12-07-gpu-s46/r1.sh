#!/usr/bin/env bash
# s46, an H100: the JIT register cap (HL_CUDA_JIT_MAX_REGISTERS, a process's every kernel; fuselab
# sets 128 unless told) at 64, 80, 96 and 128 on the cells where the H100 trails torch.compile
# (../2026-12-07-gpu-s44/rows_vs_peers_p1_summary.txt; n1/ shows 72 to 122 registers there at
# 23 to 35% occupancy). Two rounds, the caps in turn within each; one `fuselab bench` a cap, cell
# and round (its own warm-up, L2 flush and median). Exploratory: no cap is per kernel today.
set -uo pipefail
[ -f .carry/fuselab ] || bash gpu/carry.sh --unpack || exit 1
D=/tmp/r1; mkdir -p $D
{ date -u +%FT%TZ; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv; cat .carry/commit; } > $D/machine.txt 2>&1
cells="layernorm:bfloat16:16384x4096:staged_row_8k,staged_row_16k,staged_row_wide,staged_row_4k
layernorm:float16:16384x4096:staged_row_8k,staged_row_16k
layernorm:bfloat16:8192x8192:staged_row_4k,staged_row_8k
layernorm:float32:16384x4096:staged_row_8k
rmsnorm_residual:bfloat16:1024x65536:warp_regs_1k,warp_row
rmsnorm_residual:float32:65536x1024:block_row_wide,chunked_row
softmax:float32:65536x1024:chunked_row,block_row_wide"
for round in 1 2; do
    for cap in 64 80 96 128; do
        while IFS=: read -r p dt size scheds; do
            sel=""; for s in ${scheds//,/ }; do sel+=" --schedule $s"; done
            # shellcheck disable=SC2086
            HL_CUDA_JIT_MAX_REGISTERS=$cap timeout 60 .carry/fuselab bench --target cuda --pipeline $p \
                --dtype $dt --size $size $sel --no-check --budget 0.3 \
                --json $D/r${round}_c${cap}_${p}_${dt}_${size}.json > $D/r${round}_c${cap}_${p}_${dt}_${size}.txt 2>&1
            echo "round $round cap $cap $p $dt $size: exit $? at $SECONDS s" >> $D/log.txt
        done <<< "$cells"
        tar czf "$OUT/r1.tar.gz" -C /tmp r1
    done
done
python3 - $D <<'PY' | tee $D/summary.txt
import glob, json, os, re, statistics, sys
D = sys.argv[1]
t = {}
for f in glob.glob(f"{D}/r*_c*.json"):
    rnd, cap = re.match(r".*/r(\d)_c(\d+)_", f).groups()
    for r in json.load(open(f))["records"]:
        if r.get("kind") == "fuselab" and r.get("median_us"):
            t.setdefault((r["workload"], r["dtype"], r["size"], r["name"]), {}).setdefault(int(cap), []).append(r["median_us"])
print("cell: median us by cap (two rounds' mean), and each over cap 128")
for k in sorted(t):
    base = statistics.mean(t[k].get(128, [float("nan")]))
    print(" ".join(k), "  ".join(f"{c}: {statistics.mean(v):.1f} ({statistics.mean(v)/base:.3f})" for c, v in sorted(t[k].items())))
PY
tar czf "$OUT/r1.tar.gz" -C /tmp r1
