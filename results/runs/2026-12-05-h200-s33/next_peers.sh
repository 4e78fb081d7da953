#!/usr/bin/env bash
# For the next session with an H200 (written in s33, not run; same carry as next.sh): the row
# peers (torch eager, torch.compile, Liger) and the copy at the six unnamed row shapes, every
# type, in one call; the fuselab strategies there are in results/h200.json from s33 b/ (same
# kernels), but only same-run ratios against peers count, so the grid at those shapes runs again
# first, in this call.
set -uo pipefail
bash gpu/carry.sh --unpack || exit 1
export FUSELAB_REQUIRE_CUDA=1 PYTHONUNBUFFERED=1 FUSELAB_LIBRARY=python/fuselab/libfuselab.so
export FUSELAB_TORCH_EXT_DIR=/tmp/torch_ext
D=/tmp/p
mkdir -p $D
{
    date -u +%Y-%m-%dT%H:%M:%SZ
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv
    grep -m1 "model name" /proc/cpuinfo; nproc
    python3 -c 'import torch, sys; print("python", sys.version.split()[0], "torch", torch.__version__)'
    cat .carry/commit .carry/status
} > "$D/machine.txt" 2>&1
pack() { tar czf "$OUT/p.tar.gz" -C /tmp p; }
unnamed="1417x23680 2100x15978 4664x7194 5989x5603 9000x3728 12345x2718"
shapes=""
for s in $unnamed; do shapes+=" --shape $s"; done
common="block_row block_row_2k block_row_4k block_row_wide chunked_row staged_row_2k staged_row_8k staged_row_wide warp_regs_1k warp_row adjacent_warp"
for p in softmax layernorm rmsnorm_residual; do
    list=$common
    [ $p = layernorm ] && list+=" adjacent_row"
    [ $p = rmsnorm_residual ] && list+=" adjacent_row adjacent_staged_2k"
    sel=""
    for s in $list; do sel+=" --schedule $s"; done
    # shellcheck disable=SC2086
    timeout 60 python3 tools/row_grid.py --json $D/unnamed_$p.json --pipeline $p \
        --dtype float32 --dtype bfloat16 --dtype float16 $shapes $sel > $D/unnamed_$p.log 2>&1
    echo "row_grid $p: exit $? at $SECONDS s: $(tail -1 $D/unnamed_$p.log)" >> $D/log.txt
    pack
done
left=$((540 - SECONDS))
if [ $left -gt 60 ]; then
    sizes=""
    for s in $unnamed; do sizes+=" --size $s"; done
    # shellcheck disable=SC2086
    timeout $left python3 peers/peers.py --workload softmax --workload layernorm --workload rmsnorm_residual --dtype float32 \
        --dtype bfloat16 --dtype float16 --skip-autotune --time-budget $((left - 10)) $sizes \
        --json $D/peers_unnamed.json > $D/peers_unnamed.log 2>&1
    echo "peers (unnamed N): exit $? at $SECONDS s: $(tail -1 $D/peers_unnamed.log)" >> $D/log.txt
fi
pack
cat $D/log.txt
