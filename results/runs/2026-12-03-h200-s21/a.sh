#!/usr/bin/env bash
# s21's first call on the H200 (after `bash gpu/carry.sh`; carry .carry): two ways past the
# chunked form's second DRAM read of x (issue 30, rows that do not fit one SM).
#   - rmsnorm_residual's chunked_row now writes h in its first kernel (compute_with), and the
#     output reads h back: 5 row-bytes where 6;
#   - candidates chunked_c<C>k_b<B>m (schedules/*/, not shipped): chunked_row's three kernels
#     band by band of rows, B MB of x a band, C KB chunks, so that the output's second read of
#     x finds the band in the L2 (rmsnorm_residual's with h written beside the output).
#   1. fuselab_tests over every chunked variant (NaN and inf rows, rows of 20000 and 65537); the
#      CLI sweep of the row pipelines on CUDA;
#   2. the candidates, chunked_row and the long-row leaders at N = 16384 .. 262144, 2^26
#      elements a call, the three types;
#   3. the peers and the copy at N = 65536 and 262144 (same-run ratios);
#   4. Nsight Compute, caches not flushed between kernels (--cache-control none), over
#      chunked_row and chunked_c16k_b16m, softmax float32 and bfloat16 at N = 262144.
set -uo pipefail
bash gpu/carry.sh --unpack || exit 1
export FUSELAB_REQUIRE_CUDA=1 PYTHONUNBUFFERED=1 FUSELAB_LIBRARY=python/fuselab/libfuselab.so
D=/tmp/a
mkdir -p $D
{
    date -u +%Y-%m-%dT%H:%M:%SZ
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv
    grep -m1 "model name" /proc/cpuinfo; nproc
    cat .carry/commit .carry/status
} > "$OUT/machine.txt" 2>&1
timeout 120 .carry/fuselab_tests --gtest_filter='*chunked*' > $D/tests.log 2>&1
echo "chunked tests: exit $? at $SECONDS s" >> "$OUT/log.txt"
tail -3 $D/tests.log >> "$OUT/log.txt"; grep -E "^\[  FAILED|Failure" $D/tests.log | head -20 >> "$OUT/log.txt"
timeout 120 python3 tests/test_cli_sweep.py .carry/fuselab --target cuda --pipeline softmax \
    --pipeline rmsnorm_residual --pipeline layernorm --shapes 2 --no-default-size --jobs 16 > $D/sweep_rows.log 2>&1
echo "CLI sweep (rows): exit $? at $SECONDS s" >> "$OUT/log.txt"; tail -3 $D/sweep_rows.log >> "$OUT/log.txt"
grep -E "FAIL" $D/sweep_rows.log | head -10 >> "$OUT/log.txt"
sizes=""
for n in 16384 32768 65536 131072 262144; do sizes+=" --size ${n}x$(( (1 << 26) / n ))"; done
sel="--schedule chunked_row --schedule block_row_wide --schedule staged_row_wide"
for cb in 16k_b8m 16k_b16m 16k_b32m 32k_b16m 32k_b32m; do sel+=" --schedule chunked_c$cb"; done
for p in softmax layernorm rmsnorm_residual; do
    # shellcheck disable=SC2086
    timeout 100 .carry/fuselab bench --target cuda --pipeline "$p" $sel $sizes \
        --budget 0.04 --device-budget 0.02 --no-check --json "$D/grid_$p.json" \
        2>> $D/grid.log | tail -1 >> "$OUT/log.txt"
    echo "grid $p: exit ${PIPESTATUS[0]} at $SECONDS s" >> "$OUT/log.txt"
done
tar czf "$OUT/a.tar.gz" -C /tmp a
timeout 90 python3 peers/peers.py --workload rows --skip-autotune --time-budget 80 \
    --row-n 65536 --row-n 262144 --dtype float32 --dtype bfloat16 --dtype float16 \
    --json $D/peers_rows.json 2>> $D/peers.log | tail -2 >> "$OUT/log.txt"
echo "peers: exit ${PIPESTATUS[0]} at $SECONDS s" >> "$OUT/log.txt"
mkdir -p $D/ncu
metrics="gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_bytes.sum"
for s in chunked_row chunked_c16k_b16m; do
    for dt in float32 bfloat16; do
        f="$D/ncu/softmax__${dt}__262144__$s.csv"
        timeout 40 ncu --clock-control none --cache-control none --csv --page raw \
            --kernel-name regex:^_kernel --metrics "$metrics" .carry/fuselab bench --target cuda \
            --pipeline softmax --schedule $s --dtype "$dt" --size "262144x256" --once \
            --no-check < /dev/null > "$f" 2>> $D/ncu/err.txt
        echo "ncu softmax $dt $s: exit $? at $SECONDS s" >> "$OUT/log.txt"
    done
done
tar czf "$OUT/a.tar.gz" -C /tmp a
grep -vE "^\s*$" "$OUT/log.txt" | tail -60
