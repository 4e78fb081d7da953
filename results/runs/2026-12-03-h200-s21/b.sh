#!/usr/bin/env bash
# s21's second call on the H200 (after `bash gpu/carry.sh`; carry .carry). a/ found the banded
# candidates refused at every shape with more rows than a band: Halide's bounds of x's rows added
# the band's start twice where the last band was guarded ("x is accessed at 495", 256 rows). The
# bands are now ShiftInwards (the last overlaps the one before), and a host-only bounds query of
# the built variant (no GPU: tools' stubs) requires rows [0, M) at seven shapes. Same as a.sh:
#   1. fuselab_tests over every chunked variant; then each candidate checked against the
#      reference at 65537 x 130 (three bands of 16 MB in float32, the last overlapping), every
#      type; the CLI sweep of the row pipelines on CUDA;
#   2. the candidates, chunked_row and the long-row leaders at N = 16384 .. 262144, 2^26
#      elements a call, the three types;
#   3. Nsight Compute, caches not flushed between kernels, over chunked_row and
#      chunked_c16k_b16m, softmax float32 and bfloat16 at N = 262144.
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
timeout 120 .carry/fuselab_tests --gtest_filter='*chunked*' > $D/tests.log 2>&1
echo "chunked tests: exit $? at $SECONDS s" >> "$OUT/log.txt"
tail -3 $D/tests.log >> "$OUT/log.txt"; grep -E "^\[  FAILED|Failure" $D/tests.log | head -20 >> "$OUT/log.txt"
cands=""
for cb in 16k_b8m 16k_b16m 16k_b32m 32k_b16m 32k_b32m; do cands+=" --schedule chunked_c$cb"; done
for p in softmax layernorm rmsnorm_residual; do
    # shellcheck disable=SC2086
    timeout 60 .carry/fuselab bench --target cuda --pipeline "$p" $cands --size 65537x130 --once \
        > $D/check_$p.log 2>&1
    echo "checked $p at 65537x130: exit $? at $SECONDS s" >> "$OUT/log.txt"
    tail -1 $D/check_$p.log >> "$OUT/log.txt"; grep -E "WRONG|ERROR" $D/check_$p.log | head -5 >> "$OUT/log.txt"
done
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
tar czf "$OUT/b.tar.gz" -C /tmp b
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
tar czf "$OUT/b.tar.gz" -C /tmp b
grep -vE "^\s*$" "$OUT/log.txt" | tail -60
