#!/usr/bin/env bash
# s16's timing call on the H200 (one call, after `bash gpu/carry.sh` here; carry .carry): the fused
# row strategies, staged_row_2k and staged_row_8k among them, on a grid of row lengths (as
# gpu/gpu_run.sh rows_grid, fewer lengths, each pipeline under its own limit), then their peers
# (gpu_run.sh peers_rows), then the unfused forms. Every JSON straight into $OUT, so that a cut call keeps what ran.
set -uo pipefail
bash gpu/carry.sh --unpack || exit 1
export FUSELAB_REQUIRE_CUDA=1 PYTHONUNBUFFERED=1
{
    date -u +%Y-%m-%dT%H:%M:%SZ
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv
    grep -m1 "model name" /proc/cpuinfo; nproc
    python3 -c 'import torch, sys; print("python", sys.version.split()[0], "torch", torch.__version__)'
} > "$OUT/machine.txt" 2>&1
sel=""
for s in warp_row block_row block_row_wide block_row_2k block_row_4k staged_row_2k staged_row_8k; do sel+=" --schedule $s"; done
sizes=""
for n in 256 512 1024 2048 3072 4096 8192 16384 32768 65536 262144; do
    sizes+=" --size ${n}x$(( (1 << 26) / n ))"
done
sizes+=" --size 4096x16"
for pl in softmax:95 rmsnorm_residual:135 layernorm:105; do
    p=${pl%%:*}
    # shellcheck disable=SC2086
    timeout "${pl##*:}" .carry/fuselab bench --target cuda --pipeline "$p" $sel $sizes \
        --budget 0.05 --device-budget 0.03 --no-check --json "$OUT/grid_$p.json" \
        2>> "$OUT/log.txt" | tail -1 >> "$OUT/log.txt"
    echo "grid $p: exit ${PIPESTATUS[0]} at $SECONDS s" >> "$OUT/log.txt"
done
timeout 135 python3 peers/peers.py --workload rows --skip-autotune --time-budget 125 \
    --dtype float32 --dtype bfloat16 --dtype float16 --json "$OUT/peers_rows.json" \
    2>> "$OUT/log.txt" | tail -2 >> "$OUT/log.txt"
echo "peers: exit ${PIPESTATUS[0]} at $SECONDS s" >> "$OUT/log.txt"
# The unfused, two-pass and autoscheduled forms at the suite's sizes (the fusion story and the
# choice's table), last: what a cut keeps is the fused grid and its peers.
for p in softmax rmsnorm_residual layernorm; do
    timeout 22 .carry/fuselab bench --target cuda --pipeline "$p" --schedule unfused \
        --schedule two_pass --schedule auto --dtype float32 --dtype bfloat16 --dtype float16 \
        --budget 0.05 --device-budget 0.03 --no-check --json "$OUT/bench_$p.json" \
        2>> "$OUT/log.txt" | tail -1 >> "$OUT/log.txt"
    echo "bench $p: exit ${PIPESTATUS[0]} at $SECONDS s" >> "$OUT/log.txt"
done
cat .carry/commit .carry/status >> "$OUT/machine.txt"
cat "$OUT/log.txt"
