#!/usr/bin/env bash
# s41's experiment call (any GPU; HEAD's build plus eight experimental copies, uncommitted):
# staged forms with the rows cut by the 16-byte vector first (Form::by_vector) and up to 192 KB a
# block, for softmax and layernorm: x8kbv (staged_row_8k's form without its padding), x4kbv (256
# threads, bucket 4096), x4kbv512 (512 threads, bucket 4096), x2kbv (staged_row_2k's form, past 40
# KB). Timed beside every shipped block and staged strategy at the float32 rows between 8192 and
# 24576 (where softmax float32 ran 0.74 to 0.78 of the copy on the H100, s40 g3/) and the 16-bit
# rows from 11008 to 65536; the peers at 11008 and 12288; then fuselab_tests over the row
# pipelines' CUDA variants (the copies among them) and the CLI sweep of those variants.
set -uo pipefail
bash gpu/carry.sh --unpack || exit 1
export FUSELAB_REQUIRE_CUDA=1 PYTHONUNBUFFERED=1 FUSELAB_LIBRARY=python/fuselab/libfuselab.so
export FUSELAB_TORCH_EXT_DIR=/tmp/torch_ext
D=/tmp/e1
mkdir -p $D
{
    date -u +%Y-%m-%dT%H:%M:%SZ
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv
    python3 -c 'import torch, sys; print("python", sys.version.split()[0], "torch", torch.__version__)'
    cat .carry/commit .carry/status
} > "$D/machine.txt" 2>&1
pack() { tar czf "$OUT/e1.tar.gz" -C /tmp e1; }
empty=$(mktemp -d)
export FUSELAB_TUNING_FILE=$empty/tuning.json
xs="x8kbv x4kbv x4kbv512 x2kbv"
for p in softmax layernorm; do
    list="block_row block_row_2k block_row_4k block_row_wide staged_row_2k staged_row_8k staged_row_wide $xs"
    [ $p = layernorm ] && list+=" staged_row_4k staged_row_16k"
    sel=""
    for s in $list; do sel+=" --schedule $s"; done
    # shellcheck disable=SC2086
    timeout 80 python3 tools/row_grid.py --json $D/f32_$p.json --pipeline $p --dtype float32 \
        --n 8192 --n 9216 --n 10240 --n 11008 --n 12288 --n 14336 --n 16384 --n 20480 --n 24576 \
        --elements 26 $sel > $D/f32_$p.log 2>&1
    echo "row_grid float32 $p: exit $? at $SECONDS s: $(tail -1 $D/f32_$p.log)" >> $D/log.txt
    pack
    # shellcheck disable=SC2086
    timeout 80 python3 tools/row_grid.py --json $D/h16_$p.json --pipeline $p --dtype bfloat16 \
        --dtype float16 --n 11008 --n 12288 --n 16384 --n 24576 --n 32768 --n 65536 \
        --elements 26 $sel > $D/h16_$p.log 2>&1
    echo "row_grid 16-bit $p: exit $? at $SECONDS s: $(tail -1 $D/h16_$p.log)" >> $D/log.txt
    pack
done
timeout 90 python3 peers/peers.py --workload softmax --workload layernorm --skip-autotune \
    --time-budget 75 --size 11008x6096 --size 12288x5461 --size 16384x4096 --dtype float32 \
    --dtype bfloat16 --json $D/peers.json > $D/peers.log 2>&1
echo "peers: exit $? at $SECONDS s: $(tail -1 $D/peers.log)" >> $D/log.txt
pack
filter='Runtime.*:Measured.*:ChooseTest.*:Rows*:*softmax*cuda*:*rmsnorm*cuda*:*layernorm*cuda*'
for i in 0 1 2 3 4 5 6 7; do
    GTEST_TOTAL_SHARDS=8 GTEST_SHARD_INDEX=$i timeout 100 .carry/fuselab_tests --gtest_filter="$filter" \
        > $D/tests_$i.log 2>&1 &
done
wait
for i in 0 1 2 3 4 5 6 7; do
    echo "fuselab_tests shard $i: $(grep -E '^\[  (PASSED|FAILED) ' $D/tests_$i.log | tr '\n' ' ')" >> $D/log.txt
    grep -E "^\[  FAILED" $D/tests_$i.log | head -10 >> $D/log.txt
done
echo "RowExtreme cases run: $(cat $D/tests_*.log | grep -c '^\[       OK \] Rows/RowExtreme')" >> $D/log.txt
pack
timeout 150 python3 tests/test_cli_sweep.py .carry/fuselab --target cuda --pipeline softmax \
    --pipeline rmsnorm_residual --pipeline layernorm --no-default-size --jobs 12 > $D/sweep_rows.log 2>&1
echo "CLI sweep (the row pipelines' CUDA variants): exit $? at $SECONDS s: $(tail -1 $D/sweep_rows.log)" >> $D/log.txt
grep -E "^FAIL|^summary" $D/sweep_rows.log | head -12 >> $D/log.txt
pack
cat $D/log.txt
