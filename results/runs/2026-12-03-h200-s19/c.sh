#!/usr/bin/env bash
# s19's third call on the H200 (b.sh's carry):
#   1. the peers at the suite's six N in this call (the same-run ratios of results/h200.md's rows);
#   2. Nsight Compute over the bfloat16 leaders at N = 256 and 4096 (results/rows_ncu.md);
#   3. the unfused, two-pass and autoscheduled row forms at the suite's six N (their bfloat16 and
#      softmax code changed too);
#   4. s18's 24 random row shapes (seed 2718) in bfloat16, every fused strategy, for the choice's
#      measured shapes (bfloat16 is the type whose kernels changed most).
set -uo pipefail
bash gpu/carry.sh --unpack || exit 1
export FUSELAB_REQUIRE_CUDA=1 PYTHONUNBUFFERED=1 FUSELAB_LIBRARY=python/fuselab/libfuselab.so
D=/tmp/c
mkdir -p $D
{
    date -u +%Y-%m-%dT%H:%M:%SZ
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv
    cat .carry/commit .carry/status
} > "$OUT/machine.txt" 2>&1
timeout 200 python3 peers/peers.py --workload rows --skip-autotune --time-budget 190 \
    --row-n 256 --row-n 1024 --row-n 4096 --row-n 16384 --row-n 65536 --row-n 262144 --dtype float32 --dtype bfloat16 \
    --dtype float16 --json $D/peers_rows.json 2>> $D/peers.log | tail -2 >> "$OUT/log.txt"
echo "peers: exit ${PIPESTATUS[0]} at $SECONDS s" >> "$OUT/log.txt"
mkdir -p $D/ncu
metrics="gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_bytes.sum,l1tex__t_bytes.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,smsp__inst_executed.sum,sm__warps_active.avg.pct_of_peak_sustained_active"
for c in softmax:256:warp_regs_1k softmax:4096:staged_row_2k layernorm:256:warp_regs_1k \
    layernorm:4096:staged_row_2k rmsnorm_residual:256:warp_regs_1k rmsnorm_residual:4096:staged_row_2k; do
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
six=""
for n in 256 1024 4096 16384 65536 262144; do six+=" --size ${n}x$(( (1 << 26) / n ))"; done
for p in softmax rmsnorm_residual layernorm; do
    # shellcheck disable=SC2086
    timeout 60 .carry/fuselab bench --target cuda --pipeline "$p" --schedule unfused --schedule two_pass \
        --schedule auto $six --budget 0.03 --device-budget 0.015 --no-check --json "$D/bench_$p.json" \
        2>> $D/bench.log | tail -1 >> "$OUT/log.txt"
    echo "bench $p: exit ${PIPESTATUS[0]} at $SECONDS s" >> "$OUT/log.txt"
done
sizes=$(python3 -c '
import numpy as np
d = np.random.default_rng(2718)
out = []
for _ in range(24):
    n = int(round(np.exp(d.uniform(np.log(200), np.log(120000)))))
    m = max(1, int(round(2 ** d.uniform(20, 26) / n)))
    out.append(f"--size {n}x{m}")
print(" ".join(out))')
sel=""
for s in warp_regs_1k warp_row block_row block_row_wide block_row_2k block_row_4k staged_row_2k \
    staged_row_8k staged_row_wide; do sel+=" --schedule $s"; done
for p in softmax rmsnorm_residual layernorm; do
    # shellcheck disable=SC2086
    timeout 60 .carry/fuselab bench --target cuda --pipeline "$p" $sel $sizes --dtype bfloat16 \
        --budget 0.03 --device-budget 0.015 --no-check --json "$D/random_$p.json" \
        2>> $D/random.log | tail -1 >> "$OUT/log.txt"
    echo "random $p: exit ${PIPESTATUS[0]} at $SECONDS s" >> "$OUT/log.txt"
done
tar czf "$OUT/c.tar.gz" -C /tmp c
grep -vE "^\s*$" "$OUT/log.txt" | tail -45
