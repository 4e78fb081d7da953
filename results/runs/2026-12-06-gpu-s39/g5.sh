#!/usr/bin/env bash
# s39's seventh GPU call: the final build (layernorm staged_row_wide with Form::exact too, from
# g4/) checked: fuselab_tests over the row pipelines' CUDA variants, the runtime, the measured
# tables and the choice (8 shards); the CLI sweep of the row pipelines' CUDA variants;
# test_torch.py; and every layernorm strategy at g2's six exact row shapes, three types, to
# replace those cells of the H100's table whole. On an H200: every row pipeline at those shapes
# (the H200's table's cells there), then the suite's N beside the peers (g2's part).
set -uo pipefail
bash gpu/carry.sh --unpack || exit 1
export FUSELAB_REQUIRE_CUDA=1 PYTHONUNBUFFERED=1 FUSELAB_LIBRARY=python/fuselab/libfuselab.so
export FUSELAB_TORCH_EXT_DIR=/tmp/torch_ext
D=/tmp/g5
mkdir -p $D
{
    date -u +%Y-%m-%dT%H:%M:%SZ
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv
    python3 -c 'import torch, sys; print("python", sys.version.split()[0], "torch", torch.__version__)'
    cat .carry/commit .carry/status
} > "$D/machine.txt" 2>&1
pack() { tar czf "$OUT/g5.tar.gz" -C /tmp g5; }
empty=$(mktemp -d)
export FUSELAB_TUNING_FILE=$empty/tuning.json
filter='Runtime.*:Measured.*:ChooseTest.*:Rows*:*softmax*cuda*:*rmsnorm*cuda*:*layernorm*cuda*'
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
shapes="--shape 2048x32768 --shape 4096x16 --shape 4096x16384 --shape 8192x8192 --shape 16384x16 --shape 16384x4096"
common="adjacent_warp block_row block_row_2k block_row_4k block_row_wide chunked_row staged_row_2k staged_row_8k staged_row_wide warp_regs_1k warp_row"
h200=0
nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 && h200=1
pipes=layernorm
[ $h200 = 1 ] && pipes="softmax rmsnorm_residual layernorm"
for p in $pipes; do
    list=$common
    [ $p = layernorm ] && list+=" adjacent_row staged_row_4k staged_row_16k"
    [ $p = rmsnorm_residual ] && list+=" adjacent_row adjacent_staged_2k staged_row_16k"
    sel=""
    for s in $list; do sel+=" --schedule $s"; done
    # shellcheck disable=SC2086
    timeout 60 python3 tools/row_grid.py --json $D/exact_$p.json --pipeline $p --dtype float32 \
        --dtype bfloat16 --dtype float16 $shapes $sel > $D/exact_$p.log 2>&1
    echo "row_grid exact shapes $p: exit $? at $SECONDS s: $(tail -1 $D/exact_$p.log)" >> $D/log.txt
    pack
done
timeout 100 python3 tests/test_torch.py > $D/torch_tests.log 2>&1
echo "test_torch.py: exit $? at $SECONDS s: $(tail -1 $D/torch_tests.log)" >> $D/log.txt
pack
if [ $h200 = 1 ]; then
    # The H200: the suite's N and 2048 and 8192 at 2^26 elements beside the peers (g2's on the H100).
    for p in softmax rmsnorm_residual layernorm; do
        list=$common
        [ $p = layernorm ] && list+=" adjacent_row staged_row_4k staged_row_16k"
        [ $p = rmsnorm_residual ] && list+=" adjacent_row adjacent_staged_2k staged_row_16k"
        sel=""
        for s in $list; do sel+=" --schedule $s"; done
        # shellcheck disable=SC2086
        timeout 60 python3 tools/row_grid.py --json $D/grid_$p.json --pipeline $p --dtype float32 \
            --dtype bfloat16 --dtype float16 --n 256 --n 1024 --n 2048 --n 4096 --n 8192 --n 16384 \
            --n 65536 --n 262144 --elements 26 $sel > $D/grid_$p.log 2>&1
        echo "row_grid suite $p: exit $? at $SECONDS s: $(tail -1 $D/grid_$p.log)" >> $D/log.txt
        pack
    done
    timeout 110 python3 peers/peers.py --workload rows --skip-autotune --time-budget 95 \
        --row-n 256 --row-n 1024 --row-n 4096 --row-n 16384 --row-n 65536 --row-n 262144 \
        --dtype float32 --dtype bfloat16 --dtype float16 --json $D/peers_rows.json > $D/peers.log 2>&1
    echo "peers: exit $? at $SECONDS s: $(tail -1 $D/peers.log)" >> $D/log.txt
    pack
fi
cat $D/log.txt
