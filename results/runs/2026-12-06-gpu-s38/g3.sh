#!/usr/bin/env bash
# s38's third GPU call: the build with the two new strategies (staged_row_16k in layernorm and
# rmsnorm_residual, staged_row_4k in layernorm; 16-bit types only) checked on the GPU, then timed
# for the choice's H100 table:
#   - fuselab_tests over the row pipelines' CUDA variants and the runtime (8 shards); the CLI sweep
#     of the row pipelines' CUDA variants at sampled shapes; test_python.py and test_torch.py;
#   - tools/row_grid.py at every shape of results/h100.json with N >= 4096 (36 shapes), layernorm
#     and rmsnorm_residual, bfloat16 and float16, every row strategy of the two: these cells of
#     the table are replaced whole (each cell's strategies from one run).
set -uo pipefail
bash gpu/carry.sh --unpack || exit 1
export FUSELAB_REQUIRE_CUDA=1 PYTHONUNBUFFERED=1 FUSELAB_LIBRARY=python/fuselab/libfuselab.so
export FUSELAB_TORCH_EXT_DIR=/tmp/torch_ext
D=/tmp/g3
mkdir -p $D
{
    date -u +%Y-%m-%dT%H:%M:%SZ
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv
    grep -m1 "model name" /proc/cpuinfo; nproc
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
pack
timeout 150 python3 tests/test_cli_sweep.py .carry/fuselab --target cuda --pipeline softmax \
    --pipeline rmsnorm_residual --pipeline layernorm --no-default-size --jobs 12 > $D/sweep_rows.log 2>&1
echo "CLI sweep (the row pipelines' CUDA variants): exit $? at $SECONDS s: $(tail -1 $D/sweep_rows.log)" >> $D/log.txt
grep -E "^FAIL|^summary" $D/sweep_rows.log | head -12 >> $D/log.txt
pack
timeout 60 python3 tests/test_python.py .carry/fuselab > $D/python_tests.log 2>&1
echo "test_python.py: exit $? at $SECONDS s: $(tail -1 $D/python_tests.log)" >> $D/log.txt
timeout 120 python3 tests/test_torch.py > $D/torch_tests.log 2>&1
echo "test_torch.py: exit $? at $SECONDS s: $(tail -1 $D/torch_tests.log)" >> $D/log.txt
pack
shapes="--shape 4096x16384 --shape 4664x1799 --shape 4664x7194 --shape 5989x5603 --shape 5989x1401 --shape 7416x4525 --shape 7416x1131 --shape 8863x946 --shape 8863x3786 --shape 9000x3728 --shape 11936x703 --shape 11936x2811 --shape 12345x2718 --shape 14701x2282 --shape 14701x571 --shape 16384x4096 --shape 18112x463 --shape 18112x1853 --shape 22597x371 --shape 22597x1485 --shape 30008x280 --shape 30008x1118 --shape 37025x906 --shape 37025x227 --shape 47968x700 --shape 47968x175 --shape 59665x141 --shape 59665x562 --shape 65536x1024 --shape 76272x110 --shape 76272x440 --shape 93173x90 --shape 93173x360 --shape 118624x71 --shape 118624x283 --shape 262144x256"
for p in layernorm rmsnorm_residual; do
    list="adjacent_row adjacent_warp block_row block_row_2k block_row_4k block_row_wide chunked_row staged_row_2k staged_row_8k staged_row_16k staged_row_wide warp_regs_1k warp_row"
    [ $p = layernorm ] && list+=" staged_row_4k"
    [ $p = rmsnorm_residual ] && list+=" adjacent_staged_2k"
    sel=""
    for s in $list; do sel+=" --schedule $s"; done
    # shellcheck disable=SC2086
    timeout 170 python3 tools/row_grid.py --json $D/table_$p.json --pipeline $p --dtype bfloat16 \
        --dtype float16 $shapes $sel > $D/table_$p.log 2>&1
    echo "row_grid table $p: exit $? at $SECONDS s: $(tail -1 $D/table_$p.log)" >> $D/log.txt
    pack
done
cat $D/log.txt
