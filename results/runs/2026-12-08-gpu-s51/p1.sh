#!/usr/bin/env bash
# s51 (copied from s50, which never ran it): fuselab beside the peers (torch eager, torch.compile,
# Liger) at the suite's row lengths, the same call; the five hidden row lengths only with
# P1_HIDDEN=1. On an H200 (pick.sh).
set -uo pipefail
[ -f .carry/fuselab ] || bash gpu/carry.sh --unpack || exit 1
export FUSELAB_REQUIRE_CUDA=1 PYTHONUNBUFFERED=1 FUSELAB_LIBRARY=python/fuselab/libfuselab.so
export FUSELAB_TORCH_EXT_DIR=/tmp/torch_ext
D=/tmp/p1
mkdir -p $D
{
    date -u +%Y-%m-%dT%H:%M:%SZ
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv
    python3 -c 'import torch, sys; print("python", sys.version.split()[0], "torch", torch.__version__)'
    cat .carry/commit .carry/status
} > "$D/machine.txt" 2>&1
pack() { tar czf "$OUT/p1.tar.gz" -C /tmp p1; }
export FUSELAB_TUNING_FILE=$(mktemp -d)/tuning.json
common="adjacent_warp block_row block_row_2k block_row_4k block_row_wide chunked_row staged_row_2k staged_row_8k staged_row_wide warp_regs_1k warp_row"
grid() {  # grid NAME ARGS...: every fused row strategy of the three pipelines, three types
    local name=$1; shift
    for p in softmax rmsnorm_residual layernorm; do
        local list=$common sel=""
        [ $p = layernorm ] && list+=" adjacent_row staged_row_4k staged_row_16k"
        [ $p = rmsnorm_residual ] && list+=" adjacent_row adjacent_staged_2k staged_row_16k"
        for s in $list; do sel+=" --schedule $s"; done
        # shellcheck disable=SC2086
        timeout 60 python3 tools/row_grid.py --json $D/${name}_$p.json --pipeline $p --dtype float32 \
            --dtype bfloat16 --dtype float16 "$@" $sel > $D/${name}_$p.log 2>&1
        echo "row_grid $name $p: exit $? at $SECONDS s: $(tail -1 $D/${name}_$p.log)" >> $D/log.txt
        pack
    done
}
# fuselab at the peers' shapes, the same call (only same-run ratios count)
grid suite --n 256 --n 1024 --n 2048 --n 4096 --n 8192 --n 16384 --n 65536 --n 262144 --elements 26
[ "${P1_HIDDEN:-0}" = 1 ] && grid hidden --n 1536 --n 3072 --n 5120 --n 6144 --n 12288 --elements 26
timeout 160 python3 peers/peers.py --workload rows --skip-autotune --time-budget 145 \
    --row-n 256 --row-n 1024 --row-n 2048 --row-n 4096 --row-n 8192 --row-n 16384 --row-n 65536 \
    --row-n 262144 --dtype float32 --dtype bfloat16 --dtype float16 \
    --json $D/peers_rows.json > $D/peers.log 2>&1
echo "peers: exit $? at $SECONDS s: $(tail -1 $D/peers.log)" >> $D/log.txt
pack
[ "${P1_HIDDEN:-0}" = 1 ] && timeout 75 python3 peers/peers.py --workload softmax --workload layernorm --workload rmsnorm_residual \
    --skip-autotune --time-budget 60 --size 1536x43691 --size 3072x21845 --size 5120x13107 \
    --size 6144x10923 --size 12288x5461 --dtype float32 --dtype bfloat16 --dtype float16 \
    --json $D/peers_hidden.json > $D/peers_hidden.log 2>&1
echo "peers hidden: exit $? at $SECONDS s: $(tail -1 $D/peers_hidden.log)" >> $D/log.txt
pack
cat $D/log.txt
