#!/usr/bin/env bash
# s28 call 5 (carry .carry: ac05cca's build; 8e0e87d changes comments only): every CUDA test of
# fuselab_tests, and every CUDA variant through `fuselab run` at 4 sampled shapes each
# (tests/test_cli_sweep.py --no-default-size). E2=1: the other half, every CUDA variant at its
# default sizes (--default-size-only).
set -uo pipefail
bash gpu/carry.sh --unpack || exit 1
export FUSELAB_REQUIRE_CUDA=1 PYTHONUNBUFFERED=1 FUSELAB_LIBRARY=python/fuselab/libfuselab.so
D=/tmp/e
mkdir -p $D
{ date -u +%FT%TZ; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv
  cat .carry/commit; } > $D/machine.txt 2>&1
if [ -z "${E2:-}" ]; then
    timeout 150 .carry/fuselab_tests > $D/tests.log 2>&1
    echo "fuselab_tests: exit $? at $SECONDS s: $(grep -E '^\[  (PASSED|FAILED) ' $D/tests.log | tr '\n' ' ')" >> $D/log.txt
    grep -E "^\[  FAILED" $D/tests.log | head -10 >> $D/log.txt
    timeout 330 python3 tests/test_cli_sweep.py .carry/fuselab --target cuda --no-default-size \
        --jobs 12 > $D/sweep_sampled.log 2>&1
    echo "CLI sweep (sampled shapes): exit $? at $SECONDS s: $(tail -1 $D/sweep_sampled.log)" >> $D/log.txt
    grep -E "^FAIL|^summary" $D/sweep_sampled.log | head -12 >> $D/log.txt
else
    timeout 540 python3 tests/test_cli_sweep.py .carry/fuselab --target cuda --default-size-only \
        --jobs 6 > $D/sweep_default.log 2>&1
    echo "CLI sweep (default sizes): exit $? at $SECONDS s: $(tail -1 $D/sweep_default.log)" >> $D/log.txt
    grep -E "^FAIL|^summary" $D/sweep_default.log | head -12 >> $D/log.txt
fi
tar czf "$OUT/e${E2:-}.tar.gz" -C /tmp e
cat $D/log.txt
