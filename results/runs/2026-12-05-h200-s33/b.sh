#!/usr/bin/env bash
# s33 call b (warm H200, the same carry as a.sh): every CUDA variant through `fuselab run` at
# sampled shapes (the default sizes left out: a.sh's full sweep reached 63 of 1059 runs in 187 s);
# the row grid with adjacent_warp (s32's c.sh grid, never timed on the H200) and the short rows
# (s32's d.sh, N 4-160); the choice end to end, seed 3201, with the H200 table as shipped.
set -uo pipefail
bash gpu/carry.sh --unpack || exit 1
export FUSELAB_REQUIRE_CUDA=1 PYTHONUNBUFFERED=1 FUSELAB_LIBRARY=python/fuselab/libfuselab.so
D=/tmp/b
mkdir -p $D
{
    date -u +%Y-%m-%dT%H:%M:%SZ
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv
    cat .carry/commit .carry/status
} > "$D/machine.txt" 2>&1
pack() { tar czf "$OUT/b.tar.gz" -C /tmp b; }
timeout 200 python3 tests/test_cli_sweep.py .carry/fuselab --target cuda --no-default-size \
    --jobs 12 > $D/sweep_sampled.log 2>&1
echo "CLI sweep (every CUDA variant, sampled shapes): exit $? at $SECONDS s: $(tail -1 $D/sweep_sampled.log)" >> $D/log.txt
grep -E "^FAIL" $D/sweep_sampled.log | head -10 >> $D/log.txt
pack
common="block_row block_row_2k block_row_4k block_row_wide chunked_row staged_row_2k staged_row_8k staged_row_wide warp_regs_1k warp_row adjacent_warp"
ns=""
for n in 184 221 280 377 448 557 736 901 1184 1417 1888 2265 2920 3775 4664 5989 7416 8863 \
    11936 14701 18112 22597 30008 37025 47968 59665 76272 93173 118624; do ns+=" --n $n"; done
short=""
for n in 4 6 8 11 16 22 24 32 40 48 64 80 96 128 160; do short+=" --n $n"; done
shapes=""
for s in 256x262144 1024x65536 4096x16384 16384x4096 65536x1024 262144x256 \
    1417x23680 2100x15978 4664x7194 5989x5603 9000x3728 12345x2718; do
    shapes+=" --shape $s"
done
for p in softmax layernorm rmsnorm_residual; do
    list=$common
    [ $p = layernorm ] && list+=" adjacent_row"
    [ $p = rmsnorm_residual ] && list+=" adjacent_row adjacent_staged_2k"
    sel=""
    for s in $list; do sel+=" --schedule $s"; done
    # shellcheck disable=SC2086
    timeout 80 python3 tools/row_grid.py --json $D/grid_$p.json --pipeline $p \
        --dtype float32 --dtype bfloat16 --dtype float16 $ns --elements 23 --elements 25 $shapes $sel \
        > $D/grid_$p.log 2>&1
    echo "row_grid $p: exit $? at $SECONDS s: $(tail -1 $D/grid_$p.log)" >> $D/log.txt
    # shellcheck disable=SC2086
    timeout 45 python3 tools/row_grid.py --json $D/short_$p.json --pipeline $p \
        --dtype float32 --dtype bfloat16 --dtype float16 $short --elements 23 $sel \
        > $D/short_$p.log 2>&1
    echo "row_grid short $p: exit $? at $SECONDS s: $(tail -1 $D/short_$p.log)" >> $D/log.txt
    pack
done
empty=$(mktemp -d)
left=$((550 - SECONDS))
if [ $left -gt 40 ]; then
    FUSELAB_TUNING_FILE=$empty/tuning.json timeout $left python3 tools/choice_check.py .carry/fuselab \
        --target cuda --random 12 --seed 3301 --json $D/choice_check_3301.json \
        > $D/choice_check_3301.txt 2>&1
    echo "choice_check seed 3301: exit $? at $SECONDS s: $(tail -1 $D/choice_check_3301.txt)" >> $D/log.txt
fi
pack
cat $D/log.txt
