#!/usr/bin/env bash
# s19's second call on the H200 (after `bash gpu/carry.sh` on the commit without staged_keep):
#   1. the row tests again (a.sh's: every row variant against float64, the CLI sweep, test_rows.py);
#   2. rmsnorm_residual's grid (its bfloat16 variants changed: widened as words), as a.sh's.
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
sel=""
for s in warp_regs_1k warp_row block_row block_row_wide block_row_2k block_row_4k staged_row_2k \
    staged_row_8k staged_row_wide; do sel+=" --schedule $s"; done
# shellcheck disable=SC2086
timeout 150 .carry/fuselab bench --target cuda --pipeline rmsnorm_residual $sel $sizes \
    --budget 0.04 --device-budget 0.02 --no-check --json "$D/grid_rmsnorm_residual.json" \
    2>> $D/grid.log | tail -1 >> "$OUT/log.txt"
echo "grid rmsnorm_residual: exit ${PIPESTATUS[0]} at $SECONDS s" >> "$OUT/log.txt"
tar czf "$OUT/b.tar.gz" -C /tmp b
grep -vE "^\s*$" "$OUT/log.txt" | tail -45
