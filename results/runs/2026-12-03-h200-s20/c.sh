#!/usr/bin/env bash
# s20's third call on the H200 (after `bash gpu/carry.sh`; carry .carry): the shipped chunked_row
# (16 KB chunks, 128 threads: b/'s chunked_16k_t128, with its rows' statistics now one warp a row
# where b/ had a thread a row). Every other row variant's device code is byte-identical to b/'s
# (cmp of the 114 built here), which b/ tested.
#   1. fuselab_tests over the chunked_row variants (NaN and inf rows, rows of 20000 and 65537);
#      the CLI sweep of the row pipelines on CUDA;
#   2. chunked_row at 16 row lengths, N = 256 .. 262144, 2^26 elements a call, the three types;
#      the long-row leaders at N = 65536 .. 262144 in the same call;
#   3. the peers and the copy at N = 65536 and 262144 (same-run ratios);
#   4. Nsight Compute over chunked_row, softmax bfloat16 and float32 at N = 262144.
set -uo pipefail
bash gpu/carry.sh --unpack || exit 1
export FUSELAB_REQUIRE_CUDA=1 PYTHONUNBUFFERED=1 FUSELAB_LIBRARY=python/fuselab/libfuselab.so
D=/tmp/c
mkdir -p $D
{
    date -u +%Y-%m-%dT%H:%M:%SZ
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv
    grep -m1 "model name" /proc/cpuinfo; nproc
    cat .carry/commit .carry/status
} > "$OUT/machine.txt" 2>&1
timeout 100 .carry/fuselab_tests --gtest_filter='*chunked*' > $D/tests.log 2>&1
echo "chunked_row tests: exit $? at $SECONDS s" >> "$OUT/log.txt"
tail -3 $D/tests.log >> "$OUT/log.txt"; grep -E "^\[  FAILED|Failure" $D/tests.log | head -20 >> "$OUT/log.txt"
timeout 90 python3 tests/test_cli_sweep.py .carry/fuselab --target cuda --pipeline softmax \
    --pipeline rmsnorm_residual --pipeline layernorm --shapes 2 --no-default-size --jobs 16 > $D/sweep_rows.log 2>&1
echo "CLI sweep (rows): exit $? at $SECONDS s" >> "$OUT/log.txt"; tail -3 $D/sweep_rows.log >> "$OUT/log.txt"
grep -E "FAIL" $D/sweep_rows.log | head -10 >> "$OUT/log.txt"
sizes=""
for n in 256 512 1000 1024 2048 3000 4096 6144 8192 12288 16384 24576 32768 65536 131072 262144; do
    sizes+=" --size ${n}x$(( (1 << 26) / n ))"
done
long=""
for n in 65536 131072 262144; do long+=" --size ${n}x$(( (1 << 26) / n ))"; done
for p in softmax layernorm rmsnorm_residual; do
    # shellcheck disable=SC2086
    timeout 60 .carry/fuselab bench --target cuda --pipeline "$p" --schedule chunked_row $sizes \
        --budget 0.04 --device-budget 0.02 --no-check --json "$D/grid_$p.json" \
        2>> $D/grid.log | tail -1 >> "$OUT/log.txt"
    echo "grid $p: exit ${PIPESTATUS[0]} at $SECONDS s" >> "$OUT/log.txt"
    # shellcheck disable=SC2086
    timeout 40 .carry/fuselab bench --target cuda --pipeline "$p" --schedule block_row_wide \
        --schedule staged_row_wide --schedule block_row_4k $long \
        --budget 0.04 --device-budget 0.02 --no-check --json "$D/leaders_$p.json" \
        2>> $D/grid.log | tail -1 >> "$OUT/log.txt"
    echo "leaders $p: exit ${PIPESTATUS[0]} at $SECONDS s" >> "$OUT/log.txt"
done
tar czf "$OUT/c.tar.gz" -C /tmp c
timeout 90 python3 peers/peers.py --workload rows --skip-autotune --time-budget 80 \
    --row-n 65536 --row-n 262144 --dtype float32 --dtype bfloat16 --dtype float16 \
    --json $D/peers_rows.json 2>> $D/peers.log | tail -2 >> "$OUT/log.txt"
echo "peers: exit ${PIPESTATUS[0]} at $SECONDS s" >> "$OUT/log.txt"
mkdir -p $D/ncu
metrics="gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_bytes.sum,smsp__inst_executed.sum,sm__warps_active.avg.pct_of_peak_sustained_active"
for dt in bfloat16 float32; do
    f="$D/ncu/softmax__${dt}__262144__chunked_row.csv"
    timeout 25 ncu --clock-control none --csv --page raw --kernel-name regex:^_kernel \
        --metrics "$metrics" .carry/fuselab bench --target cuda --pipeline softmax \
        --schedule chunked_row --dtype "$dt" --size "262144x256" --once \
        --no-check < /dev/null > "$f" 2>> $D/ncu/err.txt
    echo "ncu softmax $dt chunked_row: exit $? at $SECONDS s" >> "$OUT/log.txt"
done
tar czf "$OUT/c.tar.gz" -C /tmp c
grep -vE "^\s*$" "$OUT/log.txt" | tail -50
