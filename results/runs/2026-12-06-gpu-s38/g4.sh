#!/usr/bin/env bash
# s38's fourth GPU call (g3's machine, an H200): the build with staged_row_16k and staged_row_4k at the suite's six row shapes (2^26
# elements), every row strategy, three types, beside peers/peers.py --workload rows (torch
# eager, torch.compile static, Liger) and the copy of the same call (rows_vs_peers.py g4).
set -uo pipefail
[ -f .carry/fuselab ] || bash gpu/carry.sh --unpack || exit 1
export PYTHONUNBUFFERED=1 FUSELAB_LIBRARY=python/fuselab/libfuselab.so
D=/tmp/g4
mkdir -p $D
{
    date -u +%Y-%m-%dT%H:%M:%SZ
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv
    cat .carry/commit .carry/status
} > "$D/machine.txt" 2>&1
pack() { tar czf "$OUT/g4.tar.gz" -C /tmp g4; }
ns="--n 256 --n 1024 --n 4096 --n 16384 --n 65536 --n 262144"
common="block_row block_row_2k block_row_4k block_row_wide chunked_row staged_row_2k staged_row_8k staged_row_wide warp_regs_1k warp_row adjacent_warp"
for p in softmax rmsnorm_residual layernorm; do
    list=$common
    [ $p = layernorm ] && list+=" adjacent_row staged_row_4k staged_row_16k"
    [ $p = rmsnorm_residual ] && list+=" adjacent_row adjacent_staged_2k staged_row_16k"
    sel=""
    for s in $list; do sel+=" --schedule $s"; done
    # shellcheck disable=SC2086
    timeout 60 python3 tools/row_grid.py --json $D/grid_$p.json --pipeline $p --dtype float32 \
        --dtype bfloat16 --dtype float16 $ns --elements 26 $sel > $D/grid_$p.log 2>&1
    echo "row_grid $p: exit $? at $SECONDS s: $(tail -1 $D/grid_$p.log)" >> $D/log.txt
done
pack
timeout 125 python3 peers/peers.py --workload rows --skip-autotune --time-budget 110 \
    --row-n 256 --row-n 1024 --row-n 4096 --row-n 16384 --row-n 65536 --row-n 262144 \
    --dtype float32 --dtype bfloat16 --dtype float16 --json $D/peers_rows.json > $D/peers.log 2>&1
echo "peers: exit $? at $SECONDS s: $(tail -1 $D/peers.log)" >> $D/log.txt
pack
cat $D/log.txt
