#!/usr/bin/env bash
# s19's first call on the H200 (after `bash gpu/carry.sh`; carry .carry; commit 6148ae0): the
# 16-bit rows' instruction cuts (bfloat16 widened as 32-bit words, softmax's max as max.f32 and its
# bfloat16 NaN test once a row) and the staged_keep strategies (exp(x - max), or x less the mean,
# kept in shared memory as float32). The staged_keep variants were wrong at short rows and crashed
# the CUDA context of the row tests (notes.txt); they were retired, and b.sh checks again.
#   1. the row tests: every row variant against float64 (fuselab_tests, NaN and inf rows among
#      them), the CLI sweep of the row pipelines on CUDA, tests/test_rows.py (Python, torch);
#   2. every fused strategy of softmax and layernorm at 16 row lengths, N = 256 .. 262144, 2^26
#      elements a call, the three types (unchecked: the checks are step 1).
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
timeout 120 .carry/fuselab_tests --gtest_filter='*softmax*:*rmsnorm*:*layernorm*:Rows/*' > $D/tests.log 2>&1
echo "row tests: exit $? at $SECONDS s" >> "$OUT/log.txt"
tail -3 $D/tests.log >> "$OUT/log.txt"; grep -E "^\[  FAILED|Failure" $D/tests.log | head -20 >> "$OUT/log.txt"
timeout 90 python3 tests/test_cli_sweep.py .carry/fuselab --target cuda --pipeline softmax \
    --pipeline rmsnorm_residual --pipeline layernorm --shapes 2 --no-default-size --jobs 16 > $D/sweep_rows.log 2>&1
echo "CLI sweep (rows): exit $? at $SECONDS s" >> "$OUT/log.txt"; tail -3 $D/sweep_rows.log >> "$OUT/log.txt"
grep -E "FAIL" $D/sweep_rows.log | head -10 >> "$OUT/log.txt"
timeout 120 python3 tests/test_rows.py > $D/rows_python.log 2>&1
echo "test_rows.py: exit $? at $SECONDS s" >> "$OUT/log.txt"; tail -3 $D/rows_python.log >> "$OUT/log.txt"
sizes=""
for n in 256 512 1000 1024 2048 3000 4096 6144 8192 12288 16384 24576 32768 65536 131072 262144; do
    sizes+=" --size ${n}x$(( (1 << 26) / n ))"
done
for p in softmax layernorm; do
    sel=""
    for s in warp_regs_1k warp_row block_row block_row_wide block_row_2k block_row_4k staged_row_2k \
        staged_row_8k staged_row_wide staged_keep_2k staged_keep_8k; do sel+=" --schedule $s"; done
    # shellcheck disable=SC2086
    timeout 150 .carry/fuselab bench --target cuda --pipeline "$p" $sel $sizes \
        --budget 0.04 --device-budget 0.02 --no-check --json "$D/grid_$p.json" \
        2>> $D/grid.log | tail -1 >> "$OUT/log.txt"
    echo "grid $p: exit ${PIPESTATUS[0]} at $SECONDS s" >> "$OUT/log.txt"
done
tar czf "$OUT/a.tar.gz" -C /tmp a
grep -vE "^\s*$" "$OUT/log.txt" | tail -45
