#!/usr/bin/env bash
# s19's second call on the H200 (same carry as a.sh): rmsnorm_residual's grid (its bfloat16
# variants changed: widened as words), the peers at the suite's six N in this call, and Nsight
# Compute over the 16-bit leaders at N = 4096 and 16384 beside staged_row_2k.
set -uo pipefail
bash gpu/carry.sh --unpack || exit 1
export FUSELAB_REQUIRE_CUDA=1 PYTHONUNBUFFERED=1 FUSELAB_LIBRARY=python/fuselab/libfuselab.so
D=/tmp/b
mkdir -p $D
{
    date -u +%Y-%m-%dT%H:%M:%SZ
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv
    cat .carry/commit .carry/status
} > "$OUT/machine.txt" 2>&1
sizes=""
for n in 256 512 1000 1024 2048 3000 4096 6144 8192 12288 16384 24576 32768 65536 131072 262144; do
    sizes+=" --size ${n}x$(( (1 << 26) / n ))"
done
sel=""
for s in warp_regs_1k warp_row block_row block_row_wide block_row_2k block_row_4k staged_row_2k \
    staged_row_8k staged_row_wide; do sel+=" --schedule $s"; done
# shellcheck disable=SC2086
timeout 150 .carry/fuselab bench --target cuda --pipeline rmsnorm_residual $sel $sizes \
    --budget 0.04 --device-budget 0.02 --no-check --json "$D/grid_rmsnorm_residual.json" \
    2>> $D/grid.log | tail -1 >> "$OUT/log.txt"
echo "grid rmsnorm_residual: exit ${PIPESTATUS[0]} at $SECONDS s" >> "$OUT/log.txt"
timeout 200 python3 peers/peers.py --workload rows --skip-autotune --time-budget 190 \
    --row-n 256 --row-n 1024 --row-n 4096 --row-n 16384 --row-n 65536 --row-n 262144 --dtype float32 --dtype bfloat16 \
    --dtype float16 --json $D/peers_rows.json 2>> $D/peers.log | tail -2 >> "$OUT/log.txt"
echo "peers: exit ${PIPESTATUS[0]} at $SECONDS s" >> "$OUT/log.txt"
mkdir -p $D/ncu
metrics="gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_bytes.sum,l1tex__t_bytes.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,smsp__inst_executed.sum,sm__warps_active.avg.pct_of_peak_sustained_active"
for c in softmax:4096:staged_row_2k softmax:4096:staged_keep_2k softmax:16384:staged_keep_8k \
    layernorm:4096:staged_row_2k layernorm:4096:staged_keep_2k rmsnorm_residual:4096:staged_row_2k; do
    IFS=: read -r op n s <<< "$c"
    dt=bfloat16
    f="$D/ncu/${op}__${dt}__${n}__${s}.csv"
    echo "$op,$dt,$n,$s,,,," > "$f"
    timeout 25 ncu --clock-control none --csv --page raw --kernel-name regex:^_kernel \
        --section WarpStateStats --section Occupancy --section LaunchStats \
        --metrics "$metrics" .carry/fuselab bench --target cuda --pipeline "$op" \
        --schedule "$s" --dtype "$dt" --size "${n}x$(( (1 << 24) / n ))" --once \
        --no-check < /dev/null >> "$f" 2>> $D/ncu/err.txt
    echo "ncu $op $dt $n $s: exit $? at $SECONDS s" >> "$OUT/log.txt"
done
tar czf "$OUT/b.tar.gz" -C /tmp b
grep -vE "^\s*$" "$OUT/log.txt" | tail -45
