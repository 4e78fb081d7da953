#!/usr/bin/env bash
# s25's last call (carry .carry: the build as committed, with the measured shapes' rule in
# runtime/fuselab/measured.cpp: only near shapes where at least 3/4 as many candidates ran as at
# the most-measured one decide). The runtime changed, so: fuselab_tests (every CUDA case), the
# CLI's CUDA sweep, and the Python package's pipeline-level calls (choose) and row tests.
set -uo pipefail
bash gpu/carry.sh --unpack || exit 1
export FUSELAB_REQUIRE_CUDA=1 PYTHONUNBUFFERED=1 FUSELAB_LIBRARY=python/fuselab/libfuselab.so
export FUSELAB_TORCH_EXT_DIR=/tmp/torch_ext
D=/tmp/f
mkdir -p $D
{
    date -u +%Y-%m-%dT%H:%M:%SZ
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv
    cat .carry/commit .carry/status
} > "$OUT/machine.txt" 2>&1
pack() { tar czf "$OUT/f.tar.gz" -C /tmp f; }
timeout 220 .carry/fuselab_tests > $D/tests.log 2>&1
echo "fuselab_tests: exit $? at $SECONDS s: $(grep -E '^\[  (PASSED|FAILED|SKIPPED) ' $D/tests.log | tr '\n' ' ')" >> "$OUT/log.txt"
grep -E "^\[  FAILED" $D/tests.log | head -10 >> "$OUT/log.txt"
pack
timeout 200 python3 tests/test_cli_sweep.py .carry/fuselab --target cuda --jobs 14 > $D/sweep_cuda.log 2>&1
echo "CLI sweep (cuda): exit $? at $SECONDS s: $(tail -1 $D/sweep_cuda.log)" >> "$OUT/log.txt"
grep -E "^FAIL" $D/sweep_cuda.log | head -10 >> "$OUT/log.txt"
pack
timeout 100 python3 tests/test_choose.py .carry/fuselab > $D/choose_tests.log 2>&1
echo "pipeline-level calls (choose): exit $? at $SECONDS s: $(tail -1 $D/choose_tests.log)" >> "$OUT/log.txt"
timeout 100 python3 tests/test_rows.py > $D/rows_tests.log 2>&1
echo "row reductions (Python, torch): exit $? at $SECONDS s: $(tail -1 $D/rows_tests.log)" >> "$OUT/log.txt"
pack
cat "$OUT/log.txt"
