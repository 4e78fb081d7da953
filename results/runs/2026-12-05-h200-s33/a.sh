#!/usr/bin/env bash
# s33 call a (written in s32 as next.sh): the final build's checks on the GPU: fuselab_tests over
# the runtime, the choice and every CUDA variant (8 shards), every CUDA variant through `fuselab run`
# (default sizes included), test_python/test_torch/test_rows/test_choose on CUDA, the choice's cost.
set -uo pipefail
bash gpu/carry.sh --unpack || exit 1
export FUSELAB_REQUIRE_CUDA=1 PYTHONUNBUFFERED=1 FUSELAB_LIBRARY=python/fuselab/libfuselab.so
export FUSELAB_TORCH_EXT_DIR=/tmp/torch_ext
D=/tmp/a
mkdir -p $D
{
    date -u +%Y-%m-%dT%H:%M:%SZ
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv
    grep -m1 "model name" /proc/cpuinfo; nproc
    python3 -c 'import torch, sys; print("python", sys.version.split()[0], "torch", torch.__version__)'
    cat .carry/commit
} > "$D/machine.txt" 2>&1
pack() { tar czf "$OUT/a.tar.gz" -C /tmp a; }
filter='Dtype.*:Runtime.*:Timing.*:Ledger.*:Concurrency.*:ChooseTest.*:CostModel.*:Measured.*:CallPlan.*:*cuda*'
for i in 0 1 2 3 4 5 6 7; do
    GTEST_TOTAL_SHARDS=8 GTEST_SHARD_INDEX=$i timeout 200 .carry/fuselab_tests --gtest_filter="$filter" \
        > $D/tests_$i.log 2>&1 &
done
wait
for i in 0 1 2 3 4 5 6 7; do
    echo "fuselab_tests shard $i: $(grep -E '^\[  (PASSED|FAILED) ' $D/tests_$i.log | tr '\n' ' ')" >> $D/log.txt
    grep -E "^\[  FAILED" $D/tests_$i.log | head -10 >> $D/log.txt
done
pack
timeout 200 python3 tests/test_cli_sweep.py .carry/fuselab --target cuda --jobs 12 > $D/sweep.log 2>&1
echo "CLI sweep (every CUDA variant): exit $? at $SECONDS s: $(tail -1 $D/sweep.log)" >> $D/log.txt
grep -E "^FAIL" $D/sweep.log | head -10 >> $D/log.txt
pack
timeout 60 python3 tests/test_python.py .carry/fuselab > $D/python_tests.log 2>&1
echo "test_python.py: exit $? at $SECONDS s: $(tail -1 $D/python_tests.log)" >> $D/log.txt
timeout 150 python3 tests/test_torch.py > $D/torch_tests.log 2>&1
echo "test_torch.py: exit $? at $SECONDS s: $(tail -1 $D/torch_tests.log)" >> $D/log.txt
timeout 90 python3 tests/test_rows.py > $D/rows_tests.log 2>&1
echo "test_rows.py: exit $? at $SECONDS s: $(tail -1 $D/rows_tests.log)" >> $D/log.txt
timeout 60 python3 tests/test_choose.py .carry/fuselab > $D/choose_tests.log 2>&1
echo "test_choose.py: exit $? at $SECONDS s: $(tail -1 $D/choose_tests.log)" >> $D/log.txt
grep -hE "^(FAIL|ERROR):|AssertionError" $D/*_tests.log | head -20 >> $D/log.txt
pack
timeout 40 .carry/fuselab overhead --target cuda --json $D/overhead.json > $D/overhead.log 2>&1
echo "overhead (cuda): exit $? at $SECONDS s" >> $D/log.txt
pack
cat $D/log.txt
