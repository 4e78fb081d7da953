#!/usr/bin/env bash
# For the next GPU session (written in s35, not run), on whichever GPU comes (an H200 first; an
# H100's records go to results/h100.json): short rows that are not whole 16-byte vectors, which
# the short-row grid (N = 4 ... 160: unaligned in 16-bit at 4, 6, 11, 22 only) lacks. s35's misses
# on the H100 (notes.txt): float16 at N = 12, 36, 61, where adjacent_warp won by 1.17 to 1.28x
# and the nearest table shapes were whole-vector rows, where warp_regs_1k wins. Odd N (no type's
# whole vectors) and multiples of 4 that are not of 8 (float32's whole vectors, not 16-bit's), at
# 2^23 elements as the short grid, every row strategy, three types; then seed 3302's cases again
# (N 4-200; s35 a/ was cut before writing its JSON: 25 of 28 within 1.10x), every strategy's
# times kept, to score the assembled table on them offline (as s33's heldout_eval.py does).
# Carry .carry (bash gpu/carry.sh) of the build to ship.
set -uo pipefail
bash gpu/carry.sh --unpack || exit 1
export FUSELAB_REQUIRE_CUDA=1 PYTHONUNBUFFERED=1 FUSELAB_LIBRARY=python/fuselab/libfuselab.so
D=/tmp/s
mkdir -p $D
{
    date -u +%Y-%m-%dT%H:%M:%SZ
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv
    cat .carry/commit .carry/status
} > "$D/machine.txt" 2>&1
pack() { tar czf "$OUT/s.tar.gz" -C /tmp s; }
short=""
for n in 5 9 12 13 19 20 27 28 36 37 44 53 60 75 76 100 107 140 151; do short+=" --n $n"; done
common="block_row block_row_2k block_row_4k block_row_wide chunked_row staged_row_2k staged_row_8k staged_row_wide warp_regs_1k warp_row adjacent_warp"
for p in softmax layernorm rmsnorm_residual; do
    list=$common
    [ $p = layernorm ] && list+=" adjacent_row"
    [ $p = rmsnorm_residual ] && list+=" adjacent_row adjacent_staged_2k"
    sel=""
    for s in $list; do sel+=" --schedule $s"; done
    # shellcheck disable=SC2086
    timeout 80 python3 tools/row_grid.py --json $D/short_$p.json --pipeline $p \
        --dtype float32 --dtype bfloat16 --dtype float16 $short --elements 23 $sel \
        > $D/short_$p.log 2>&1
    echo "row_grid short (unaligned) $p: exit $? at $SECONDS s: $(tail -1 $D/short_$p.log)" >> $D/log.txt
    pack
done
empty=$(mktemp -d)
left=$((${DEADLINE:-540} - SECONDS))
if [ $left -gt 40 ]; then
    FUSELAB_TUNING_FILE=$empty/tuning.json timeout $left python3 tools/choice_check.py .carry/fuselab \
        --target cuda --random 12 --seed 3302 --n-range 4 200 --json $D/choice_check_3302.json \
        > $D/choice_check_3302.txt 2>&1
    echo "choice_check seed 3302: exit $? at $SECONDS s: $(tail -1 $D/choice_check_3302.txt)" >> $D/log.txt
fi
pack
cat $D/log.txt
