#!/usr/bin/env bash
# s37's third GPU call: the final build (fcf: layernorm's hoisted per-row values kept, softmax's
# and rmsnorm_residual's dropped after g2: their block forms ran 0.83 to 1.14x) checked on the
# GPU: fuselab_tests over the row pipelines' CUDA variants and the runtime (8 shards), the CLI
# sweep of the row pipelines' CUDA variants at sampled shapes (no default sizes, as g1 and g2); then tools/row_grid.py
# at the suite's six row shapes (2^26 elements), three types, this build against d8663c6's
# library (.carry/old_lib.zst) alternately (new, old, then old, new), in the time left.
set -uo pipefail
bash gpu/carry.sh --unpack || exit 1
zstd=zstd; command -v zstd > /dev/null || zstd=.carry/zstd
mkdir -p /tmp/old && $zstd -dc --long=30 .carry/old_lib.zst > /tmp/old/libfuselab.so || exit 1
export FUSELAB_REQUIRE_CUDA=1 PYTHONUNBUFFERED=1 FUSELAB_LIBRARY=python/fuselab/libfuselab.so
D=/tmp/g3
mkdir -p $D
{
    date -u +%Y-%m-%dT%H:%M:%SZ
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv
    cat .carry/commit .carry/status
} > "$D/machine.txt" 2>&1
pack() { tar czf "$OUT/g3.tar.gz" -C /tmp g3; }
empty=$(mktemp -d)
export FUSELAB_TUNING_FILE=$empty/tuning.json
filter='Runtime.*:Measured.*:Rows*:*softmax*cuda*:*rmsnorm*cuda*:*layernorm*cuda*'
for i in 0 1 2 3 4 5 6 7; do
    GTEST_TOTAL_SHARDS=8 GTEST_SHARD_INDEX=$i timeout 150 .carry/fuselab_tests --gtest_filter="$filter" \
        > $D/tests_$i.log 2>&1 &
done
wait
for i in 0 1 2 3 4 5 6 7; do
    echo "fuselab_tests shard $i: $(grep -E '^\[  (PASSED|FAILED) ' $D/tests_$i.log | tr '\n' ' ')" >> $D/log.txt
    grep -E "^\[  FAILED" $D/tests_$i.log | head -10 >> $D/log.txt
done
pack
timeout 150 python3 tests/test_cli_sweep.py .carry/fuselab --target cuda --pipeline softmax \
    --pipeline rmsnorm_residual --pipeline layernorm --no-default-size --jobs 12 > $D/sweep_rows.log 2>&1
echo "CLI sweep (the row pipelines' CUDA variants): exit $? at $SECONDS s: $(tail -1 $D/sweep_rows.log)" >> $D/log.txt
grep -E "^FAIL|^summary" $D/sweep_rows.log | head -12 >> $D/log.txt
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
            left=$((${DEADLINE:-400} - SECONDS))
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
