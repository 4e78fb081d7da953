#!/usr/bin/env bash
# s47: on a card that is not the H200 (an H100), the table rows s46's H100 held-out misses asked
# for (s46 c3/summary.txt): 16-bit and float32 rows of N = 4 mod 8 (and odd) from 1028 to 6148, and
# few long rows (N 24000 to 44000, 32 to 160 rows), every fused row strategy, three types; then
# the held-out check (c1.sh) at its new seeds. On an H200: nothing (pick.sh runs p1.sh there).
set -uo pipefail
[ -f .carry/fuselab ] || bash gpu/carry.sh --unpack || exit 1
export FUSELAB_REQUIRE_CUDA=1 PYTHONUNBUFFERED=1 FUSELAB_LIBRARY=python/fuselab/libfuselab.so
D=/tmp/x1; mkdir -p $D
{
    date -u +%Y-%m-%dT%H:%M:%SZ
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv
    cat .carry/commit .carry/status
} > "$D/machine.txt" 2>&1
export FUSELAB_TUNING_FILE=$(mktemp -d)/tuning.json
common="adjacent_warp block_row block_row_2k block_row_4k block_row_wide chunked_row staged_row_2k staged_row_8k staged_row_wide warp_regs_1k warp_row"
shapes="--n 1028 --n 1540 --n 2052 --n 2564 --n 3076 --n 3588 --n 4100 --n 5124 --n 6148 --n 1063 --n 3091 --elements 23"
shapes+=" --shape 24000x40 --shape 29492x53 --shape 33000x100 --shape 38000x32 --shape 44126x27 --shape 44000x150"
for p in softmax rmsnorm_residual layernorm; do
    list=$common sel=""
    [ $p = layernorm ] && list+=" adjacent_row staged_row_4k staged_row_16k"
    [ $p = rmsnorm_residual ] && list+=" adjacent_row adjacent_staged_2k staged_row_16k"
    for s in $list; do sel+=" --schedule $s"; done
    # shellcheck disable=SC2086
    timeout 80 python3 tools/row_grid.py --json $D/grid_$p.json --pipeline $p --dtype float32 \
        --dtype bfloat16 --dtype float16 $shapes $sel > $D/grid_$p.log 2>&1
    echo "row_grid $p: exit $? at $SECONDS s: $(tail -1 $D/grid_$p.log)" >> $D/log.txt
    tar czf "$OUT/x1.tar.gz" -C /tmp x1
done
cat $D/log.txt
