#!/usr/bin/env bash
# s32 call c (carry .carry: the build of the commit after c22c014: a GPU with no table of its
# own takes the H200's, measured.cpp shipped_measured_or_kin). a.sh ran on an H100 (the device tool
# gave one for the H200 asked); its fuselab_tests died at the 150 s limit (84 tests, the CPU
# variants' float64 references on one core). Here:
#   1. fuselab_tests: every test but the CPU variants', 8 shards at once (the runtime, the choice,
#      every CUDA variant against float64, the row extremes).
#   2. tools/row_grid.py on this GPU: every fused strategy of the three row pipelines, three types,
#      s22's grid (29 N at 2^23 and 2^25 elements), the suite's six shapes and six unnamed ones:
#      this GPU's own table, and the data to judge another GPU's table standing in for it.
#   3. tools/choice_check.py on this GPU, as a user calls it (no tuning record): seed 3201 (N 200 to
#      120000) and 3202 (N 4 to 200). No table was measured on this GPU: the choice stands the
#      H200's table in (a.sh's build, c22c014, gave the model's pick with the H200's fit here).
set -uo pipefail
bash gpu/carry.sh --unpack || exit 1
export FUSELAB_REQUIRE_CUDA=1 PYTHONUNBUFFERED=1 FUSELAB_LIBRARY=python/fuselab/libfuselab.so
D=/tmp/c
mkdir -p $D
{
    date -u +%Y-%m-%dT%H:%M:%SZ
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv
    grep -m1 "model name" /proc/cpuinfo; nproc
    python3 -c 'import torch, sys; print("python", sys.version.split()[0], "torch", torch.__version__)'
    cat .carry/commit .carry/status
} > "$D/machine.txt" 2>&1
pack() { tar czf "$OUT/c.tar.gz" -C /tmp c; }
filter='Dtype.*:Runtime.*:Timing.*:Ledger.*:Concurrency.*:ChooseTest.*:CostModel.*:Measured.*:CallPlan.*:*cuda*'
for i in 0 1 2 3 4 5 6 7; do
    GTEST_TOTAL_SHARDS=8 GTEST_SHARD_INDEX=$i timeout 200 .carry/fuselab_tests --gtest_filter="$filter" \
        > $D/tests_$i.log 2>&1 &
done
wait
for i in 0 1 2 3 4 5 6 7; do
    echo "fuselab_tests shard $i: $(grep -E '^\[  (PASSED|FAILED) |tests? ran' $D/tests_$i.log | tr '\n' ' ')" >> $D/log.txt
    grep -E "^\[  FAILED" $D/tests_$i.log | head -10 >> $D/log.txt
done
echo "tests done at $SECONDS s" >> $D/log.txt
pack
ns=""
for n in 184 221 280 377 448 557 736 901 1184 1417 1888 2265 2920 3775 4664 5989 7416 8863 \
    11936 14701 18112 22597 30008 37025 47968 59665 76272 93173 118624; do ns+=" --n $n"; done
shapes=""
for s in 256x262144 1024x65536 4096x16384 16384x4096 65536x1024 262144x256 \
    1417x23680 2100x15978 4664x7194 5989x5603 9000x3728 12345x2718; do
    shapes+=" --shape $s"
done
common="block_row block_row_2k block_row_4k block_row_wide chunked_row staged_row_2k staged_row_8k staged_row_wide warp_regs_1k warp_row adjacent_warp"
for p in softmax layernorm rmsnorm_residual; do
    list=$common
    [ $p = layernorm ] && list+=" adjacent_row"
    [ $p = rmsnorm_residual ] && list+=" adjacent_row adjacent_staged_2k"
    sel=""
    for s in $list; do sel+=" --schedule $s"; done
    # shellcheck disable=SC2086
    timeout 110 python3 tools/row_grid.py --json $D/grid_$p.json --pipeline $p \
        --dtype float32 --dtype bfloat16 --dtype float16 $ns --elements 23 --elements 25 $shapes $sel \
        > $D/grid_$p.log 2>&1
    echo "row_grid $p: exit $? at $SECONDS s: $(tail -1 $D/grid_$p.log)" >> $D/log.txt
    pack
done
empty=$(mktemp -d)
for seed in 3201 3202; do
    range=""
    [ $seed = 3202 ] && range="--n-range 4 200"
    left=$((545 - SECONDS))
    [ $left -lt 30 ] && break
    # shellcheck disable=SC2086
    FUSELAB_TUNING_FILE=$empty/tuning.json timeout $left python3 tools/choice_check.py .carry/fuselab \
        --target cuda --random 12 --seed $seed $range --json $D/choice_check_$seed.json \
        > $D/choice_check_$seed.txt 2>&1
    echo "choice_check seed $seed: exit $? at $SECONDS s: $(tail -1 $D/choice_check_$seed.txt)" >> $D/log.txt
    pack
done
cat $D/log.txt
