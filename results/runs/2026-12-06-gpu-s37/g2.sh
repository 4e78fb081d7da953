#!/usr/bin/env bash
# s37's second GPU call: this session's build (the padded statistics' mask one test a vector;
# the block forms' per-row values once a thread: rows_forms.h hoist_row_values) checked and timed
# against d8663c6's library (g1's build, carried as .carry/old_lib.zst). fuselab_tests over every
# CUDA variant (8 shards) and the CLI sweep at sampled shapes; then tools/row_grid.py over every
# row strategy at the suite's six row shapes (2^26 elements), three types, the new library and
# the old alternately (new, old, then old, new), pipeline by pipeline, in the time left.
set -uo pipefail
bash gpu/carry.sh --unpack || exit 1
zstd=zstd; command -v zstd > /dev/null || zstd=.carry/zstd
mkdir -p /tmp/old && $zstd -dc --long=30 .carry/old_lib.zst > /tmp/old/libfuselab.so || exit 1
export FUSELAB_REQUIRE_CUDA=1 PYTHONUNBUFFERED=1 FUSELAB_LIBRARY=python/fuselab/libfuselab.so
D=/tmp/g2
mkdir -p $D
{
    date -u +%Y-%m-%dT%H:%M:%SZ
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv
    cat .carry/commit .carry/status
} > "$D/machine.txt" 2>&1
pack() { tar czf "$OUT/g2.tar.gz" -C /tmp g2; }
empty=$(mktemp -d)
export FUSELAB_TUNING_FILE=$empty/tuning.json
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
timeout 200 python3 tests/test_cli_sweep.py .carry/fuselab --target cuda --no-default-size \
    --jobs 12 > $D/sweep_sampled.log 2>&1
echo "CLI sweep (every CUDA variant, sampled shapes): exit $? at $SECONDS s: $(tail -1 $D/sweep_sampled.log)" >> $D/log.txt
grep -E "^FAIL|^summary" $D/sweep_sampled.log | head -12 >> $D/log.txt
pack
ns="--n 256 --n 1024 --n 4096 --n 16384 --n 65536 --n 262144"
common="block_row block_row_2k block_row_4k block_row_wide chunked_row staged_row_2k staged_row_8k staged_row_wide warp_regs_1k warp_row adjacent_warp"
for round in 1 2; do
    order="new old"
    [ $round = 2 ] && order="old new"
    for p in softmax rmsnorm_residual layernorm; do
        list=$common
        [ $p = layernorm ] && list+=" adjacent_row"
        [ $p = rmsnorm_residual ] && list+=" adjacent_row adjacent_staged_2k"
        sel=""
        for s in $list; do sel+=" --schedule $s"; done
        for lib in $order; do
            left=$((${DEADLINE:-560} - SECONDS))
            [ $left -lt 25 ] && break 3
            so=python/fuselab/libfuselab.so
            [ $lib = old ] && so=/tmp/old/libfuselab.so
            # shellcheck disable=SC2086
            FUSELAB_LIBRARY=$so timeout $left python3 tools/row_grid.py \
                --json $D/grid_${p}_${lib}_$round.json --pipeline $p --dtype float32 \
                --dtype bfloat16 --dtype float16 $ns --elements 26 $sel \
                > $D/grid_${p}_${lib}_$round.log 2>&1
            echo "row_grid $p $lib $round: exit $? at $SECONDS s: $(tail -1 $D/grid_${p}_${lib}_$round.log)" >> $D/log.txt
        done
        pack
    done
done
pack
cat $D/log.txt
