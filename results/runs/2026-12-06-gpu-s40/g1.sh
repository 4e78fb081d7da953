#!/usr/bin/env bash
# s40's first GPU call (HEAD as committed at s39's end, no kernel changed since): the CUDA tests
# s39 owed (the rows' extreme-input test over the strategies that hold a row on chip and
# N = 2048 to 16384, with the row pipelines' CUDA variants, the runtime, the measured tables and
# the choice; 8 shards); the choice's host cost (fuselab overhead, three processes); row lengths
# the suite never names (768, 1536, 2040, 2560, 3072, 4000, 5120, 6144, 11008, 12288: common
# hidden sizes and two just short of a bucket), every fused strategy at M = 2^26 / N rows
# (tools/row_grid.py), fuselab's own pick there with no tuning record (picks.py), and the peers at
# the same N (peers/peers.py); then the CLI sweep of the row pipelines' CUDA variants. Four
# experimental copies in the build (uncommitted; Form::by_vector, rows_forms.h: the aligned rows'
# output and staging cut by the vector first): softmax xs2kbv_e (staged_row_2k's form), xswbv_e
# (staged_row_wide's), layernorm xl2kbv_e (staged_row_2k's), xl4kbv_e (staged_row_4k's), timed
# beside the strategies they copy in the hidden-N grid, and run by the tests and the sweep.
set -uo pipefail
bash gpu/carry.sh --unpack || exit 1
export FUSELAB_REQUIRE_CUDA=1 PYTHONUNBUFFERED=1 FUSELAB_LIBRARY=python/fuselab/libfuselab.so
export FUSELAB_TORCH_EXT_DIR=/tmp/torch_ext
R=results/runs/2026-12-06-gpu-s40
D=/tmp/g1
mkdir -p $D
{
    date -u +%Y-%m-%dT%H:%M:%SZ
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv
    python3 -c 'import torch, sys; print("python", sys.version.split()[0], "torch", torch.__version__)'
    cat .carry/commit .carry/status
} > "$D/machine.txt" 2>&1
pack() { tar czf "$OUT/g1.tar.gz" -C /tmp g1; }
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
echo "RowExtreme cases run: $(cat $D/tests_*.log | grep -c '^\[       OK \] Rows/RowExtreme')" >> $D/log.txt
pack
for k in 1 2 3; do
    timeout 30 .carry/fuselab overhead --target cuda --json $D/overhead_$k.json > $D/overhead_$k.txt 2>&1
    echo "overhead (cuda) $k: exit $? at $SECONDS s: $(grep 'new shape' $D/overhead_$k.txt)" >> $D/log.txt
done
pack
common="adjacent_warp block_row block_row_2k block_row_4k block_row_wide chunked_row staged_row_2k staged_row_8k staged_row_wide warp_regs_1k warp_row"
hidden="--n 768 --n 1536 --n 2040 --n 2560 --n 3072 --n 4000 --n 5120 --n 6144 --n 11008 --n 12288"
for p in softmax rmsnorm_residual layernorm; do
    list=$common
    [ $p = layernorm ] && list+=" adjacent_row staged_row_4k staged_row_16k xl2kbv_e xl4kbv_e"
    [ $p = rmsnorm_residual ] && list+=" adjacent_row adjacent_staged_2k staged_row_16k"
    [ $p = softmax ] && list+=" xs2kbv_e xswbv_e"
    sel=""
    for s in $list; do sel+=" --schedule $s"; done
    # shellcheck disable=SC2086
    timeout 80 python3 tools/row_grid.py --json $D/hidden_$p.json --pipeline $p --dtype float32 \
        --dtype bfloat16 --dtype float16 $hidden --elements 26 $sel > $D/hidden_$p.log 2>&1
    echo "row_grid hidden N $p: exit $? at $SECONDS s: $(tail -1 $D/hidden_$p.log)" >> $D/log.txt
    pack
done
# shellcheck disable=SC2086
FUSELAB_TORCH_EXT=0 timeout 90 python3 $R/picks.py --json $D/picks.json $hidden --elements 26 \
    > $D/picks.log 2>&1
echo "picks: exit $? at $SECONDS s: $(tail -1 $D/picks.log)" >> $D/log.txt
pack
timeout 130 python3 peers/peers.py --workload rows --skip-autotune --time-budget 115 \
    --row-n 768 --row-n 1536 --row-n 2040 --row-n 2560 --row-n 3072 --row-n 4000 --row-n 5120 \
    --row-n 6144 --row-n 11008 --row-n 12288 \
    --dtype float32 --dtype bfloat16 --dtype float16 --json $D/peers_hidden.json > $D/peers.log 2>&1
echo "peers hidden N: exit $? at $SECONDS s: $(tail -1 $D/peers.log)" >> $D/log.txt
pack
timeout 150 python3 tests/test_cli_sweep.py .carry/fuselab --target cuda --pipeline softmax \
    --pipeline rmsnorm_residual --pipeline layernorm --no-default-size --jobs 12 > $D/sweep_rows.log 2>&1
echo "CLI sweep (the row pipelines' CUDA variants): exit $? at $SECONDS s: $(tail -1 $D/sweep_rows.log)" >> $D/log.txt
grep -E "^FAIL|^summary" $D/sweep_rows.log | head -12 >> $D/log.txt
pack
cat $D/log.txt
