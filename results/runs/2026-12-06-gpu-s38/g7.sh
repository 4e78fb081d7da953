#!/usr/bin/env bash
# s38's seventh GPU call (g3's machine, an H200): the three row pipelines at every shape of
# results/h200.json, three types, every row strategy, for the choice's H200 table (its row cells
# were s33's kernels' and before; s36's and s37's kernel changes and this session's strategies
# had no H200 time): the table's row cells are replaced whole, each from this one run.
set -uo pipefail
[ -f .carry/fuselab ] || bash gpu/carry.sh --unpack || exit 1
export PYTHONUNBUFFERED=1 FUSELAB_LIBRARY=python/fuselab/libfuselab.so
D=/tmp/g7
mkdir -p $D
{
    date -u +%Y-%m-%dT%H:%M:%SZ
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv
    cat .carry/commit .carry/status
} > "$D/machine.txt" 2>&1
S=results/runs/2026-12-06-gpu-s38
for p in softmax rmsnorm_residual layernorm; do
    list="adjacent_warp block_row block_row_2k block_row_4k block_row_wide chunked_row staged_row_2k staged_row_8k staged_row_wide warp_regs_1k warp_row"
    [ $p = layernorm ] && list+=" adjacent_row staged_row_4k staged_row_16k"
    [ $p = rmsnorm_residual ] && list+=" adjacent_row adjacent_staged_2k staged_row_16k"
    sel=""
    for s in $list; do sel+=" --schedule $s"; done
    # shellcheck disable=SC2046,SC2086
    timeout 170 python3 tools/row_grid.py --json $D/grid_$p.json --pipeline $p --dtype float32 \
        --dtype bfloat16 --dtype float16 $(cat $S/shapes_h200_$p.txt) $sel > $D/grid_$p.log 2>&1
    echo "row_grid $p: exit $? at $SECONDS s: $(tail -1 $D/grid_$p.log)" >> $D/log.txt
    tar czf "$OUT/g7.tar.gz" -C /tmp g7
done
cat $D/log.txt
