#!/usr/bin/env bash
# s46's last call (an H100; no H200 came): every fuselab_test (8 shards) and the CLI sweep of every
# CUDA variant, with the carried build of this session's code (the far tier; the tests updated).
set -uo pipefail
[ -f .carry/fuselab ] || bash gpu/carry.sh --unpack || exit 1
export FUSELAB_REQUIRE_CUDA=1 PYTHONUNBUFFERED=1 FUSELAB_LIBRARY=python/fuselab/libfuselab.so
D=/tmp/t2; mkdir -p $D
{ date -u +%FT%TZ; nvidia-smi --query-gpu=name,driver_version --format=csv; cat .carry/commit .carry/status; } > $D/machine.txt 2>&1
export FUSELAB_TUNING_FILE=$(mktemp -d)/tuning.json
for i in 0 1 2 3 4 5 6 7; do
    GTEST_TOTAL_SHARDS=8 GTEST_SHARD_INDEX=$i timeout 90 .carry/fuselab_tests > $D/tests_$i.log 2>&1 &
done
wait
for i in 0 1 2 3 4 5 6 7; do
    echo "fuselab_tests shard $i: $(grep -E '^\[  (PASSED|FAILED) ' $D/tests_$i.log | tr '\n' ' ')" >> $D/log.txt
    grep -E "^\[  FAILED" $D/tests_$i.log | head -10 >> $D/log.txt
done
tar czf "$OUT/t2.tar.gz" -C /tmp t2
timeout 110 python3 tests/test_cli_sweep.py .carry/fuselab --target cuda --no-default-size --jobs 14 > $D/sweep_all.log 2>&1
echo "CLI sweep (every CUDA variant): exit $? at $SECONDS s: $(tail -1 $D/sweep_all.log)" >> $D/log.txt
grep -E "^FAIL|^summary" $D/sweep_all.log | head -12 >> $D/log.txt
tar czf "$OUT/t2.tar.gz" -C /tmp t2
cat $D/log.txt
