#!/usr/bin/env bash
# For the next session with an H200 (written in s33, not run; same carry as next.sh): the row
# peers (torch eager, torch.compile, Liger) and the copy at the six unnamed row shapes, every
# type, in one call; the fuselab strategies there are in results/h200.json from s33 b/ (same
# kernels), but only same-run ratios against peers count, so the grid at those shapes runs again
# first, in this call. Before it, s22's 29 row lengths at 2^21 elements with every strategy of
# today: the H200 table's 2^21 shapes are s22's, timed before adjacent_row and adjacent_warp
# existed, and the lookup's coverage rule then passes them over for farther shapes (s33:
# layernorm float32 3050x609 picked block_row_4k from shapes 1.5 units away, 1.27x behind;
# the 2^21 shapes left out, seed 3301 fell to 30 of 36, worst 1.53x: notes.txt).
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
ns=""
for n in 184 221 280 377 448 557 736 901 1184 1417 1888 2265 2920 3775 4664 5989 7416 8863 \
    11936 14701 18112 22597 30008 37025 47968 59665 76272 93173 118624; do ns+=" --n $n"; done
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
    timeout 60 python3 tools/row_grid.py --json $D/grid21_$p.json --pipeline $p \
        --dtype float32 --dtype bfloat16 --dtype float16 $ns --elements 21 $sel > $D/grid21_$p.log 2>&1
    echo "row_grid 2^21 $p: exit $? at $SECONDS s: $(tail -1 $D/grid21_$p.log)" >> $D/log.txt
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
