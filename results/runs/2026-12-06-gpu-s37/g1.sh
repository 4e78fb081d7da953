#!/usr/bin/env bash
# s37's first GPU call (an H200 asked for first): s36's build (d8663c6: the row statistics'
# instruction cuts, timed in s36 on an H100 only) checked on the GPU that came and timed beside
# the peers. fuselab_tests over every CUDA variant (8 shards), the CLI sweep at sampled shapes,
# test_python.py and test_torch.py on CUDA; then tools/row_grid.py over every row strategy at the
# suite's six row shapes (N x M = 2^26), three types, beside peers/peers.py --workload rows
# (torch eager, torch.compile static, Liger) and the copy of the same call; then Nsight Compute
# over the bfloat16 leaders at N = 256, 4096 and 65536 (results/rows_ncu.md's form).
set -uo pipefail
bash gpu/carry.sh --unpack || exit 1
export FUSELAB_REQUIRE_CUDA=1 PYTHONUNBUFFERED=1 FUSELAB_LIBRARY=python/fuselab/libfuselab.so
export FUSELAB_TORCH_EXT_DIR=/tmp/torch_ext
D=/tmp/g1
mkdir -p $D
{
    date -u +%Y-%m-%dT%H:%M:%SZ
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv
    grep -m1 "model name" /proc/cpuinfo; nproc
    python3 -c 'import torch, sys; print("python", sys.version.split()[0], "torch", torch.__version__)'
    cat .carry/commit .carry/status
} > "$D/machine.txt" 2>&1
pack() { tar czf "$OUT/g1.tar.gz" -C /tmp g1; }
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
ns="--n 256 --n 1024 --n 4096 --n 16384 --n 65536 --n 262144"
common="block_row block_row_2k block_row_4k block_row_wide chunked_row staged_row_2k staged_row_8k staged_row_wide warp_regs_1k warp_row adjacent_warp"
for p in softmax rmsnorm_residual layernorm; do
    list=$common
    [ $p = layernorm ] && list+=" adjacent_row"
    [ $p = rmsnorm_residual ] && list+=" adjacent_row adjacent_staged_2k"
    sel=""
    for s in $list; do sel+=" --schedule $s"; done
    # shellcheck disable=SC2086
    timeout 90 python3 tools/row_grid.py --json $D/grid_$p.json --pipeline $p --dtype float32 \
        --dtype bfloat16 --dtype float16 $ns --elements 26 $sel > $D/grid_$p.log 2>&1
    echo "row_grid $p: exit $? at $SECONDS s: $(tail -1 $D/grid_$p.log)" >> $D/log.txt
    pack
done
timeout 120 python3 peers/peers.py --workload rows --skip-autotune --time-budget 110 \
    --row-n 256 --row-n 1024 --row-n 4096 --row-n 16384 --row-n 65536 --row-n 262144 \
    --dtype float32 --dtype bfloat16 --dtype float16 --json $D/peers_rows.json > $D/peers.log 2>&1
echo "peers: exit $? at $SECONDS s: $(tail -1 $D/peers.log)" >> $D/log.txt
pack
mkdir -p $D/ncu
metrics="gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_bytes.sum,l1tex__t_bytes.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,smsp__inst_executed.sum,sm__warps_active.avg.pct_of_peak_sustained_active"
for c in softmax:256:warp_regs_1k softmax:4096:block_row_4k softmax:16384:staged_row_8k \
    softmax:65536:staged_row_wide layernorm:4096:block_row_4k layernorm:16384:staged_row_8k \
    layernorm:65536:staged_row_wide rmsnorm_residual:1024:warp_regs_1k; do
    IFS=: read -r op n s <<< "$c"
    dt=bfloat16
    f="$D/ncu/${op}__${dt}__${n}__${s}.csv"
    echo "$op,$dt,$n,$s,,,," > "$f"
    timeout 15 ncu --clock-control none --csv --page raw --kernel-name regex:^_kernel \
        --section WarpStateStats --section Occupancy --section LaunchStats \
        --metrics "$metrics" .carry/fuselab bench --target cuda --pipeline "$op" \
        --schedule "$s" --dtype "$dt" --size "${n}x$(( (1 << 24) / n ))" --once \
        --no-check < /dev/null >> "$f" 2>> $D/ncu/err.txt
    echo "ncu $op $dt $n $s: exit $? at $SECONDS s" >> $D/log.txt
done
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
cat $D/log.txt
