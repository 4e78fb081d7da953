#!/usr/bin/env bash
# s36's second GPU call (same machine, same carry as a.sh): the row strategies of this session's
# build at the suite's six CUDA row shapes (N x M = 2^26) beside the peers (torch eager,
# torch.compile static, Liger) and the copy of the same call (issue 30: only same-run ratios
# count). tools/row_grid.py over every row strategy, three types; then peers/peers.py at the
# same shapes, N = 256 to 16384 first (the 0.93-of-the-copy cells), in the time left.
set -uo pipefail
[ -f .carry/fuselab ] || bash gpu/carry.sh --unpack || exit 1
export PYTHONUNBUFFERED=1 FUSELAB_LIBRARY=python/fuselab/libfuselab.so
D=/tmp/b
mkdir -p $D
{
    date -u +%Y-%m-%dT%H:%M:%SZ
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv
    cat .carry/commit .carry/status
} > "$D/machine.txt" 2>&1
pack() { tar czf "$OUT/b.tar.gz" -C /tmp b; }
ns="--n 256 --n 1024 --n 4096 --n 16384 --n 65536 --n 262144"
common="block_row block_row_2k block_row_4k block_row_wide chunked_row staged_row_2k staged_row_8k staged_row_wide warp_regs_1k warp_row adjacent_warp"
for p in softmax rmsnorm_residual layernorm; do
    list=$common
    [ $p = layernorm ] && list+=" adjacent_row"
    [ $p = rmsnorm_residual ] && list+=" adjacent_row adjacent_staged_2k"
    sel=""
    for s in $list; do sel+=" --schedule $s"; done
    # shellcheck disable=SC2086
    timeout 100 python3 tools/row_grid.py --json $D/grid_$p.json --pipeline $p --dtype float32 \
        --dtype bfloat16 --dtype float16 $ns --elements 26 $sel > $D/grid_$p.log 2>&1
    echo "row_grid $p: exit $? at $SECONDS s: $(tail -1 $D/grid_$p.log)" >> $D/log.txt
    pack
done
k=0
for n in "256x262144 1024x65536 4096x16384 16384x4096" "65536x1024 262144x256"; do
    k=$((k + 1))
    left=$((${DEADLINE:-570} - SECONDS))
    [ $left -lt 60 ] && break
    sizes=""
    for s in $n; do sizes+=" --size $s"; done
    # shellcheck disable=SC2086
    timeout $left python3 peers/peers.py --workload softmax --workload layernorm \
        --workload rmsnorm_residual --dtype float32 --dtype bfloat16 --dtype float16 --skip-autotune \
        --time-budget $((left - 15)) $sizes --json $D/peers_$k.json > $D/peers_$k.log 2>&1
    echo "peers ($n): exit $? at $SECONDS s: $(tail -1 $D/peers_$k.log)" >> $D/log.txt
    pack
done
cat $D/log.txt
