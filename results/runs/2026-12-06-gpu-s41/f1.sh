#!/usr/bin/env bash
# s41's second GPU call, the final build (softmax and layernorm staged_row_2k hold rows up to 192
# KB; the CPU rows' tasks): fuselab_tests over the row pipelines' CUDA variants, the runtime, the
# measured tables and the choice (8 shards), then by the card that came:
# - an H200: every fused row strategy of the three pipelines in three types at every row shape of
#   results/h200.json (s38's lists) and s40 g1's ten hidden lengths: the H200's table again
#   (h1.sh's, which never got an H200; no peers: 486 s of device time were left);
# - an H100: every fused row strategy of softmax and layernorm at the shapes of results/h100.json
#   where staged_row_2k newly runs (float32 N in (10240, 49152], 16-bit N in (20480, 98304]),
#   each (pipeline, shape, type) from this one run; then the CLI sweep of the row pipelines.
set -uo pipefail
bash gpu/carry.sh --unpack || exit 1
export FUSELAB_REQUIRE_CUDA=1 PYTHONUNBUFFERED=1 FUSELAB_LIBRARY=python/fuselab/libfuselab.so
export FUSELAB_TORCH_EXT_DIR=/tmp/torch_ext
D=/tmp/f1
mkdir -p $D
S=results/runs/2026-12-06-gpu-s41
{
    date -u +%Y-%m-%dT%H:%M:%SZ
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv
    python3 -c 'import torch, sys; print("python", sys.version.split()[0], "torch", torch.__version__)'
    cat .carry/commit .carry/status
} > "$D/machine.txt" 2>&1
pack() { tar czf "$OUT/f1.tar.gz" -C /tmp f1; }
empty=$(mktemp -d)
export FUSELAB_TUNING_FILE=$empty/tuning.json
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
common="adjacent_warp block_row block_row_2k block_row_4k block_row_wide chunked_row staged_row_2k staged_row_8k staged_row_wide warp_regs_1k warp_row"
sel_for() {
    local list=$common sel=""
    [ "$1" = layernorm ] && list+=" adjacent_row staged_row_4k staged_row_16k"
    [ "$1" = rmsnorm_residual ] && list+=" adjacent_row adjacent_staged_2k staged_row_16k"
    for s in $list; do sel+=" --schedule $s"; done
    echo "$sel"
}
if nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200; then
    for p in softmax rmsnorm_residual layernorm; do
        # shellcheck disable=SC2046,SC2086
        timeout 95 python3 tools/row_grid.py --json $D/table_$p.json --pipeline $p --dtype float32 \
            --dtype bfloat16 --dtype float16 $(cat $S/shapes_h200_$p.txt) $(sel_for $p) > $D/table_$p.log 2>&1
        echo "row_grid table $p: exit $? at $SECONDS s: $(tail -1 $D/table_$p.log)" >> $D/log.txt
        pack
        # shellcheck disable=SC2046,SC2086
        timeout 25 python3 tools/row_grid.py --json $D/hidden_$p.json --pipeline $p --dtype float32 \
            --dtype bfloat16 --dtype float16 --n 768 --n 1536 --n 2040 --n 2560 --n 3072 --n 4000 \
            --n 5120 --n 6144 --n 11008 --n 12288 --elements 26 $(sel_for $p) > $D/hidden_$p.log 2>&1
        echo "row_grid hidden $p: exit $? at $SECONDS s: $(tail -1 $D/hidden_$p.log)" >> $D/log.txt
        pack
    done
else
    for p in softmax layernorm; do
        # shellcheck disable=SC2046,SC2086
        timeout 60 python3 tools/row_grid.py --json $D/long32_$p.json --pipeline $p --dtype float32 \
            $(cat $S/shapes_h100_${p}_long.txt) $(sel_for $p) > $D/long32_$p.log 2>&1
        echo "row_grid float32 long $p: exit $? at $SECONDS s: $(tail -1 $D/long32_$p.log)" >> $D/log.txt
        # shellcheck disable=SC2046,SC2086
        timeout 60 python3 tools/row_grid.py --json $D/long16_$p.json --pipeline $p --dtype bfloat16 \
            --dtype float16 $(cat $S/shapes_h100_${p}_long16.txt) $(sel_for $p) > $D/long16_$p.log 2>&1
        echo "row_grid 16-bit long $p: exit $? at $SECONDS s: $(tail -1 $D/long16_$p.log)" >> $D/log.txt
        pack
    done
    timeout 130 python3 tests/test_cli_sweep.py .carry/fuselab --target cuda --pipeline softmax \
        --pipeline rmsnorm_residual --pipeline layernorm --no-default-size --jobs 12 > $D/sweep_rows.log 2>&1
    echo "CLI sweep (the row pipelines' CUDA variants): exit $? at $SECONDS s: $(tail -1 $D/sweep_rows.log)" >> $D/log.txt
    grep -E "^FAIL|^summary" $D/sweep_rows.log | head -12 >> $D/log.txt
    pack
fi
cat $D/log.txt
