#!/usr/bin/env bash
# s40's second GPU call, the final build (1f6fdfe: Form::by_vector in four strategies, the
# choice's faster lookup and its exact-length term, the H100's table with g1's ten row lengths):
# fuselab_tests over the row pipelines' CUDA variants, the runtime, the measured tables and the
# choice (8 shards); the choice's host cost (fuselab overhead, three processes); the CLI sweep of
# the row pipelines' CUDA variants; on an H100: tools/choice_check.py held out (seed 4001, no
# tuning record), then g1's ten row lengths again, every fused strategy and the peers, one call
# (g1's peers did not run: --row-n filters the suite's sizes, --size names these); on an H200:
# the H200's table for the exact and by_vector kernels instead (g2.sh's grids and peers). Last,
# test_torch.py and test_python.py.
set -uo pipefail
bash gpu/carry.sh --unpack || exit 1
export FUSELAB_REQUIRE_CUDA=1 PYTHONUNBUFFERED=1 FUSELAB_LIBRARY=python/fuselab/libfuselab.so
export FUSELAB_TORCH_EXT_DIR=/tmp/torch_ext
D=/tmp/g3
mkdir -p $D
{
    date -u +%Y-%m-%dT%H:%M:%SZ
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv
    python3 -c 'import torch, sys; print("python", sys.version.split()[0], "torch", torch.__version__)'
    cat .carry/commit .carry/status
} > "$D/machine.txt" 2>&1
pack() { tar czf "$OUT/g3.tar.gz" -C /tmp g3; }
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
timeout 150 python3 tests/test_cli_sweep.py .carry/fuselab --target cuda --pipeline softmax \
    --pipeline rmsnorm_residual --pipeline layernorm --no-default-size --jobs 12 > $D/sweep_rows.log 2>&1
echo "CLI sweep (the row pipelines' CUDA variants): exit $? at $SECONDS s: $(tail -1 $D/sweep_rows.log)" >> $D/log.txt
grep -E "^FAIL|^summary" $D/sweep_rows.log | head -12 >> $D/log.txt
pack
common="adjacent_warp block_row block_row_2k block_row_4k block_row_wide chunked_row staged_row_2k staged_row_8k staged_row_wide warp_regs_1k warp_row"
grid() {  # grid NAME ARGS...: every fused row strategy of the three pipelines, three types
    local name=$1; shift
    for p in softmax rmsnorm_residual layernorm; do
        local list=$common sel=""
        [ $p = layernorm ] && list+=" adjacent_row staged_row_4k staged_row_16k"
        [ $p = rmsnorm_residual ] && list+=" adjacent_row adjacent_staged_2k staged_row_16k"
        for s in $list; do sel+=" --schedule $s"; done
        # shellcheck disable=SC2086
        timeout 60 python3 tools/row_grid.py --json $D/${name}_$p.json --pipeline $p --dtype float32 \
            --dtype bfloat16 --dtype float16 "$@" $sel > $D/${name}_$p.log 2>&1
        echo "row_grid $name $p: exit $? at $SECONDS s: $(tail -1 $D/${name}_$p.log)" >> $D/log.txt
        pack
    done
}
if nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200; then
    grid exact --shape 2048x32768 --shape 4096x16 --shape 4096x16384 --shape 8192x8192 \
        --shape 16384x16 --shape 16384x4096
    grid grid --n 256 --n 1024 --n 2048 --n 4096 --n 8192 --n 16384 --n 65536 --n 262144 --elements 26
    timeout 130 python3 peers/peers.py --workload rows --skip-autotune --time-budget 115 \
        --row-n 256 --row-n 1024 --row-n 2048 --row-n 4096 --row-n 8192 --row-n 16384 --row-n 65536 \
        --row-n 262144 --dtype float32 --dtype bfloat16 --dtype float16 \
        --json $D/peers_rows.json > $D/peers.log 2>&1
    echo "peers: exit $? at $SECONDS s: $(tail -1 $D/peers.log)" >> $D/log.txt
    pack
else
    FUSELAB_TUNING_FILE=$empty/tuning.json timeout 130 python3 tools/choice_check.py .carry/fuselab \
        --target cuda --random 12 --seed 4001 --json $D/choice_check_4001.json \
        > $D/choice_check_4001.txt 2>&1
    echo "choice_check seed 4001: exit $? at $SECONDS s: $(tail -1 $D/choice_check_4001.txt)" >> $D/log.txt
    pack
    grid hidden --n 768 --n 1536 --n 2040 --n 2560 --n 3072 --n 4000 --n 5120 --n 6144 --n 11008 \
        --n 12288 --elements 26
    timeout 110 python3 peers/peers.py --workload rows --skip-autotune --time-budget 95 \
        --size 768x87381 --size 1536x43691 --size 2040x32897 --size 2560x26214 --size 3072x21845 \
        --size 4000x16777 --size 5120x13107 --size 6144x10923 --size 11008x6096 --size 12288x5461 \
        --dtype float32 --dtype bfloat16 --dtype float16 --json $D/peers_hidden.json > $D/peers.log 2>&1
    echo "peers hidden N: exit $? at $SECONDS s: $(tail -1 $D/peers.log)" >> $D/log.txt
    pack
fi
timeout 90 python3 tests/test_torch.py > $D/torch_tests.log 2>&1
echo "test_torch.py: exit $? at $SECONDS s: $(tail -1 $D/torch_tests.log)" >> $D/log.txt
pack
timeout 40 python3 tests/test_python.py > $D/python_tests.log 2>&1
echo "test_python.py: exit $? at $SECONDS s: $(tail -1 $D/python_tests.log)" >> $D/log.txt
pack
cat $D/log.txt
