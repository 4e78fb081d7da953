#!/usr/bin/env bash
# s17's first call on the H200 (after `bash gpu/carry.sh` here; carry .carry): the warp forms'
# statistics by a two-step shuffle tree (rows_common.h: gpu_lane_tree) instead of 32 shfl.idx.
#   1. the row tests (every row variant against float64, the runtime's row checks);
#   2. warp_regs_1k, warp_row and staged_row_2k timed at N = 256 .. 2048 (2^26 elements a call);
#   3. the peers at N = 256 and 1024 in this call (eager, compile, Liger);
#   4. Nsight Compute over one call of each leader at N = 256, 4096 and 65536 in float32 and
#      bfloat16, at 2^24 elements, one ncu process a case (raw CSV in ncu.tar.gz).
set -uo pipefail
bash gpu/carry.sh --unpack || exit 1
export FUSELAB_REQUIRE_CUDA=1 PYTHONUNBUFFERED=1
{
    date -u +%Y-%m-%dT%H:%M:%SZ
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv
    cat .carry/commit .carry/status
} > "$OUT/machine.txt" 2>&1
timeout 100 .carry/fuselab_tests --gtest_filter='*softmax*:*rmsnorm*:*layernorm*:Rows/*:Runtime.*' \
    > /tmp/tests.log 2>&1
echo "row tests: exit $? at $SECONDS s" >> "$OUT/log.txt"
tail -5 /tmp/tests.log >> "$OUT/log.txt"
grep -E "FAILED|Failure" /tmp/tests.log | head -20 >> "$OUT/log.txt"
sizes=""
for n in 256 512 1000 1024 2048; do sizes+=" --size ${n}x$(( (1 << 26) / n ))"; done
sel="--schedule warp_regs_1k --schedule warp_row --schedule staged_row_2k"
for p in softmax rmsnorm_residual layernorm; do
    # shellcheck disable=SC2086
    timeout 50 .carry/fuselab bench --target cuda --pipeline "$p" $sel $sizes \
        --budget 0.05 --device-budget 0.03 --no-check --json "/tmp/regs_$p.json" \
        2>> "$OUT/log.txt" | tail -1 >> "$OUT/log.txt"
    echo "regs $p: exit ${PIPESTATUS[0]} at $SECONDS s" >> "$OUT/log.txt"
done
timeout 110 python3 peers/peers.py --workload rows --skip-autotune --time-budget 100 \
    --row-n 256 --row-n 1024 --dtype float32 --dtype bfloat16 --dtype float16 \
    --json /tmp/peers_regs.json 2>> "$OUT/log.txt" | tail -2 >> "$OUT/log.txt"
echo "peers: exit ${PIPESTATUS[0]} at $SECONDS s" >> "$OUT/log.txt"
mkdir -p /tmp/ncu
metrics="gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_bytes.sum,l1tex__t_bytes.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,smsp__inst_executed.sum,sm__warps_active.avg.pct_of_peak_sustained_active"
for op in softmax rmsnorm_residual layernorm; do
    for dt in float32 bfloat16; do
        for c in 256:warp_regs_1k 4096:staged_row_2k 65536:block_row_wide; do
            n=${c%%:*} s=${c##*:}
            f="/tmp/ncu/${op}__${dt}__${n}__${s}.csv"
            echo "$op,$dt,$n,$s,,,," > "$f"
            timeout 25 ncu --clock-control none --csv --page raw --kernel-name regex:^_kernel \
                --section WarpStateStats --section Occupancy --section LaunchStats \
                --metrics "$metrics" .carry/fuselab bench --target cuda --pipeline "$op" \
                --schedule "$s" --dtype "$dt" --size "${n}x$(( (1 << 24) / n ))" --once \
                --no-check < /dev/null >> "$f" 2>> /tmp/ncu/err.txt
            echo "ncu $op $dt $n $s: exit $? at $SECONDS s" >> "$OUT/log.txt"
        done
    done
done
cp /tmp/tests.log /tmp/regs_*.json /tmp/peers_regs.json /tmp/ncu/ 2>/dev/null
tar czf "$OUT/a.tar.gz" -C /tmp ncu
cat "$OUT/log.txt" | grep -vE "^\s*$" | tail -40
