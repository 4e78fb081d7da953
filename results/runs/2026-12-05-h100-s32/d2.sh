#!/usr/bin/env bash
# s32 call d2: d.sh cut off at 55 s a pipeline (row_grid timed the 2^25 calls of
# block_row at N = 4 slowly); the rest at 2^23 elements only. (carry .carry, c.sh's build). c.sh's seed 3202 (N 4 to 200) found the GPU choice
# 15 of 36 within 1.10x, worst 4.68x: no GPU table holds a row shorter than 184 (the H200's grid
# starts there). Here tools/row_grid.py times every fused CUDA strategy of the three row
# pipelines in three types at short rows (15 N from 4 to 160, 2^23 and 2^25 elements a call), on
# whatever GPU the call gets, for a table of short rows.
set -uo pipefail
bash gpu/carry.sh --unpack || exit 1
export FUSELAB_REQUIRE_CUDA=1 PYTHONUNBUFFERED=1 FUSELAB_LIBRARY=python/fuselab/libfuselab.so
D=/tmp/d2
mkdir -p $D
{
    date -u +%Y-%m-%dT%H:%M:%SZ
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv
    grep -m1 "model name" /proc/cpuinfo; nproc
    cat .carry/commit .carry/status
} > "$D/machine.txt" 2>&1
pack() { tar czf "$OUT/d2.tar.gz" -C /tmp d2; }
ns=""
for n in 4 6 8 11 16 22 24 32 40 48 64 80 96 128 160; do ns+=" --n $n"; done
common="block_row block_row_2k block_row_4k block_row_wide chunked_row staged_row_2k staged_row_8k staged_row_wide warp_regs_1k warp_row adjacent_warp"
for pd in "softmax float16" "layernorm bfloat16 float16" "rmsnorm_residual float32 bfloat16 float16"; do
    set -- $pd; p=$1; shift; dts=""; for d in "$@"; do dts+=" --dtype $d"; done
    list=$common
    [ $p = layernorm ] && list+=" adjacent_row"
    [ $p = rmsnorm_residual ] && list+=" adjacent_row adjacent_staged_2k"
    sel=""
    for s in $list; do sel+=" --schedule $s"; done
    # shellcheck disable=SC2086
    timeout 80 python3 tools/row_grid.py --json $D/grid_$p.json --pipeline $p \
        $dts $ns --elements 23 $sel \
        > $D/grid_$p.log 2>&1
    echo "row_grid $p: exit $? at $SECONDS s: $(tail -1 $D/grid_$p.log)" >> $D/log.txt
    pack
done
cat $D/log.txt
