#!/usr/bin/env bash
# s35's GPU call (s33's next.sh with the Python and torch tests added): this session's build
# (61f9aea and after: the registry's set of names, a runtime change) and s33's and s34's, which
# ran on no GPU. Carry .carry of that build (bash gpu/carry.sh). fuselab_tests over the runtime,
# the choice and every CUDA variant (8 shards); `fuselab overhead --target cuda` three times
# (issue 29: at most 50 us at a new shape); test_choose.py; every CUDA variant through `fuselab
# run` at sampled shapes; test_python.py and test_torch.py on CUDA; then the choice end to end
# with no tuning record, seeds 3302 (N 4-200) and 3303 (N 200-120000), in the time left.
set -uo pipefail
bash gpu/carry.sh --unpack || exit 1
export FUSELAB_REQUIRE_CUDA=1 PYTHONUNBUFFERED=1 FUSELAB_LIBRARY=python/fuselab/libfuselab.so
export FUSELAB_TORCH_EXT_DIR=/tmp/torch_ext
D=/tmp/n
mkdir -p $D
{
    date -u +%Y-%m-%dT%H:%M:%SZ
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv
    grep -m1 "model name" /proc/cpuinfo; nproc
    python3 -c 'import torch, sys; print("python", sys.version.split()[0], "torch", torch.__version__)'
    cat .carry/commit .carry/status
} > "$D/machine.txt" 2>&1
pack() { tar czf "$OUT/n.tar.gz" -C /tmp n; }
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
for k in 1 2 3; do
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
timeout 60 python3 tests/test_python.py .carry/fuselab > $D/python_tests.log 2>&1
echo "test_python.py: exit $? at $SECONDS s: $(tail -1 $D/python_tests.log)" >> $D/log.txt
timeout 120 python3 tests/test_torch.py > $D/torch_tests.log 2>&1
echo "test_torch.py: exit $? at $SECONDS s: $(tail -1 $D/torch_tests.log)" >> $D/log.txt
pack
for seed in 3302 3303; do
    range="--n-range 200 120000"
    [ $seed = 3302 ] && range="--n-range 4 200"
    left=$((${DEADLINE:-540} - SECONDS))
    [ $left -lt 40 ] && break
    # shellcheck disable=SC2086
    timeout $left python3 tools/choice_check.py .carry/fuselab --target cuda --random 12 \
        --seed $seed $range --json $D/choice_check_$seed.json > $D/choice_check_$seed.txt 2>&1
    echo "choice_check seed $seed: exit $? at $SECONDS s: $(tail -1 $D/choice_check_$seed.txt)" >> $D/log.txt
    pack
done
cat $D/log.txt
