#!/usr/bin/env bash
# s20's second call on the H200 (after `bash gpu/carry.sh`; carry .carry): the chunked form after
# a/, its rows' statistics in a kernel of their own (a/'s output kernel combined the partials in
# every block, behind barriers, and streamed at 2.6 TB/s where the chunks' kernel read at 4.26).
#   1. the row tests and the CLI sweep of the row pipelines, as a.sh;
#   2. the candidates (chunk bytes 8K to 64K, 128 to 512 threads) beside the long-row leaders at
#      N = 8192 .. 262144, 2^26 elements a call;
#   3. the peers and the copy at N = 65536 and 262144 (same-run ratios);
#   4. Nsight Compute over chunked_row, softmax bfloat16 and float32 at N = 262144.
set -uo pipefail
bash gpu/carry.sh --unpack || exit 1
export FUSELAB_REQUIRE_CUDA=1 PYTHONUNBUFFERED=1 FUSELAB_LIBRARY=python/fuselab/libfuselab.so
D=/tmp/b
mkdir -p $D
{
    date -u +%Y-%m-%dT%H:%M:%SZ
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv
    grep -m1 "model name" /proc/cpuinfo; nproc
    cat .carry/commit .carry/status
} > "$OUT/machine.txt" 2>&1
timeout 200 .carry/fuselab_tests --gtest_filter='*softmax*:*rmsnorm*:*layernorm*:Rows/*' > $D/tests.log 2>&1
echo "row tests: exit $? at $SECONDS s" >> "$OUT/log.txt"
tail -3 $D/tests.log >> "$OUT/log.txt"; grep -E "^\[  FAILED|Failure" $D/tests.log | head -20 >> "$OUT/log.txt"
timeout 100 python3 tests/test_cli_sweep.py .carry/fuselab --target cuda --pipeline softmax \
    --pipeline rmsnorm_residual --pipeline layernorm --shapes 2 --no-default-size --jobs 16 > $D/sweep_rows.log 2>&1
echo "CLI sweep (rows): exit $? at $SECONDS s" >> "$OUT/log.txt"; tail -3 $D/sweep_rows.log >> "$OUT/log.txt"
grep -E "FAIL" $D/sweep_rows.log | head -10 >> "$OUT/log.txt"
sizes=""
for n in 8192 16384 32768 65536 131072 262144; do sizes+=" --size ${n}x$(( (1 << 26) / n ))"; done
sel=""
for s in chunked_row chunked_32k chunked_t128 chunked_16k_t128 chunked_32k_t128 chunked_64k block_row_wide \
    staged_row_wide staged_row_8k block_row_4k; do sel+=" --schedule $s"; done
for p in softmax layernorm rmsnorm_residual; do
    # shellcheck disable=SC2086
    timeout 100 .carry/fuselab bench --target cuda --pipeline "$p" $sel $sizes \
        --budget 0.04 --device-budget 0.02 --no-check --json "$D/grid_$p.json" \
        2>> $D/grid.log | tail -1 >> "$OUT/log.txt"
    echo "grid $p: exit ${PIPESTATUS[0]} at $SECONDS s" >> "$OUT/log.txt"
done
timeout 100 python3 peers/peers.py --workload rows --skip-autotune --time-budget 90 \
    --row-n 65536 --row-n 262144 --dtype float32 --dtype bfloat16 --dtype float16 \
    --json $D/peers_rows.json 2>> $D/peers.log | tail -2 >> "$OUT/log.txt"
echo "peers: exit ${PIPESTATUS[0]} at $SECONDS s" >> "$OUT/log.txt"
mkdir -p $D/ncu
metrics="gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_bytes.sum,smsp__inst_executed.sum,sm__warps_active.avg.pct_of_peak_sustained_active"
for c in bfloat16:chunked_row float32:chunked_row bfloat16:chunked_32k_t128 float32:chunked_32k_t128; do
    IFS=: read -r dt s <<< "$c"
    f="$D/ncu/softmax__${dt}__262144__${s}.csv"
    timeout 25 ncu --clock-control none --csv --page raw --kernel-name regex:^_kernel \
        --metrics "$metrics" .carry/fuselab bench --target cuda --pipeline softmax \
        --schedule "$s" --dtype "$dt" --size "262144x256" --once \
        --no-check < /dev/null > "$f" 2>> $D/ncu/err.txt
    echo "ncu softmax $dt $s: exit $? at $SECONDS s" >> "$OUT/log.txt"
done
tar czf "$OUT/b.tar.gz" -C /tmp b
grep -vE "^\s*$" "$OUT/log.txt" | tail -50
