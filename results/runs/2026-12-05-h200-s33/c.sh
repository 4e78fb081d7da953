#!/usr/bin/env bash
# s33 call c (carry .carry: the build with the choice's cheaper new-shape path and s33's H200
# table compiled in): fuselab_tests over the runtime, the choice and every CUDA variant (8
# shards); `fuselab overhead --target cuda` twice (the choice's cost); the Python choice tests;
# every CUDA variant through `fuselab run` at sampled shapes; then the choice end to end with no
# tuning record (tools/choice_check.py: every strategy timed at each shape), seeds 3302 (N 4-200)
# and 3303 (N 200-120000), none of their shapes in any table, in the time left.
set -uo pipefail
bash gpu/carry.sh --unpack || exit 1
export FUSELAB_REQUIRE_CUDA=1 PYTHONUNBUFFERED=1 FUSELAB_LIBRARY=python/fuselab/libfuselab.so
export FUSELAB_TORCH_EXT_DIR=/tmp/torch_ext
D=/tmp/c
mkdir -p $D
{
    date -u +%Y-%m-%dT%H:%M:%SZ
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv
    grep -m1 "model name" /proc/cpuinfo; nproc
    python3 -c 'import torch, sys; print("python", sys.version.split()[0], "torch", torch.__version__)'
    cat .carry/commit .carry/status
} > "$D/machine.txt" 2>&1
pack() { tar czf "$OUT/c.tar.gz" -C /tmp c; }
empty=$(mktemp -d)
export FUSELAB_TUNING_FILE=$empty/tuning.json  # no tuning record, in every step
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
for k in 1 2; do
    timeout 40 .carry/fuselab overhead --target cuda --json $D/overhead_$k.json > $D/overhead_$k.log 2>&1
    echo "overhead (cuda) $k: exit $? at $SECONDS s: $(sed -n 2p $D/overhead_$k.log)" >> $D/log.txt
done
timeout 60 python3 tests/test_choose.py .carry/fuselab > $D/choose_tests.log 2>&1
echo "test_choose.py: exit $? at $SECONDS s: $(tail -1 $D/choose_tests.log)" >> $D/log.txt
pack
timeout 200 python3 tests/test_cli_sweep.py .carry/fuselab --target cuda --no-default-size \
    --jobs 12 > $D/sweep_sampled.log 2>&1
echo "CLI sweep (every CUDA variant, sampled shapes): exit $? at $SECONDS s: $(tail -1 $D/sweep_sampled.log)" >> $D/log.txt
grep -E "^FAIL|^summary" $D/sweep_sampled.log | head -12 >> $D/log.txt
pack
for seed in 3302 3303; do
    range="--n-range 200 120000"
    [ $seed = 3302 ] && range="--n-range 4 200"
    left=$((${DEADLINE:-470} - SECONDS))
    [ $left -lt 40 ] && break
    # shellcheck disable=SC2086
    timeout $left python3 tools/choice_check.py .carry/fuselab --target cuda --random 12 \
        --seed $seed $range --json $D/choice_check_$seed.json > $D/choice_check_$seed.txt 2>&1
    echo "choice_check seed $seed: exit $? at $SECONDS s: $(tail -1 $D/choice_check_$seed.txt)" >> $D/log.txt
    pack
done
cat $D/log.txt
