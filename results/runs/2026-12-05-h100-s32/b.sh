#!/usr/bin/env bash
# s32 call b (carry .carry, the same build as a.sh's): s29's c.sh less what a.sh runs (the CLI
# sweeps, fuselab_tests, the choice's cost): tools/row_grid.py over every fused strategy of the
# three row pipelines in three types at s22's grid (29 N, 2^23 and 2^25 elements), the suite's six
# shapes and the six unnamed ones; then, in the time left, the peers at the unnamed N (softmax,
# layernorm). Written in s29, never run: no GPU was lent in s29 (after b/), s30 or s31, and s32's
# calls got an H100 (c.sh ran this grid there). For the next session that gets an H200: its table
# has never timed adjacent_warp, which won 56 of the H100's 603 grid shapes.
set -uo pipefail
bash gpu/carry.sh --unpack || exit 1
export FUSELAB_REQUIRE_CUDA=1 PYTHONUNBUFFERED=1 FUSELAB_LIBRARY=python/fuselab/libfuselab.so
export FUSELAB_TORCH_EXT_DIR=/tmp/torch_ext
D=/tmp/b
mkdir -p $D
{
    date -u +%Y-%m-%dT%H:%M:%SZ
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv
    grep -m1 "model name" /proc/cpuinfo; nproc
    python3 -c 'import torch, sys; print("python", sys.version.split()[0], "torch", torch.__version__)'
    cat .carry/commit .carry/status
} > "$D/machine.txt" 2>&1
pack() { tar czf "$OUT/b.tar.gz" -C /tmp b; }
ns=""
for n in 184 221 280 377 448 557 736 901 1184 1417 1888 2265 2920 3775 4664 5989 7416 8863 \
    11936 14701 18112 22597 30008 37025 47968 59665 76272 93173 118624; do ns+=" --n $n"; done
unnamed="1417x23680 2100x15978 4664x7194 5989x5603 9000x3728 12345x2718"
shapes=""
for s in 256x262144 1024x65536 4096x16384 16384x4096 65536x1024 262144x256 $unnamed; do
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
    timeout 150 python3 tools/row_grid.py --json $D/grid_$p.json --pipeline $p \
        --dtype float32 --dtype bfloat16 --dtype float16 $ns --elements 23 --elements 25 $shapes $sel \
        > $D/grid_$p.log 2>&1
    echo "row_grid $p: exit $? at $SECONDS s: $(tail -1 $D/grid_$p.log)" >> $D/log.txt
    pack
done
left=$((540 - SECONDS))
if [ $left -gt 60 ]; then
    sizes=""
    for s in $unnamed; do sizes+=" --size $s"; done
    # shellcheck disable=SC2086
    timeout $left python3 peers/peers.py --workload softmax --workload layernorm --dtype float32 \
        --dtype bfloat16 --dtype float16 --skip-autotune --time-budget $((left - 10)) $sizes \
        --json $D/peers_unnamed.json > $D/peers_unnamed.log 2>&1
    echo "peers (unnamed N): exit $? at $SECONDS s: $(tail -1 $D/peers_unnamed.log)" >> $D/log.txt
fi
pack
cat $D/log.txt
