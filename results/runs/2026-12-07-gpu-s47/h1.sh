#!/usr/bin/env bash
# s47 (copied from s46, copied from s45; never run there)'s second GPU call, warm after p1.sh (HEAD's build: s41's final kernels and choice): the row
# tables. Every fused row strategy of the three pipelines in three types at every row shape of
# results/h200.json (187 a pipeline: the suite's, the exact ones, s22's grid, the short rows) and
# at s40 g1's ten hidden row lengths.
# The shapes: s38's lists (shapes_h200_*.txt, copied here), as s38's g7 timed them.
set -uo pipefail
bash gpu/carry.sh --unpack || exit 1
export FUSELAB_REQUIRE_CUDA=1 PYTHONUNBUFFERED=1 FUSELAB_LIBRARY=python/fuselab/libfuselab.so
export FUSELAB_TORCH_EXT_DIR=/tmp/torch_ext
D=/tmp/h1
mkdir -p $D
{
    date -u +%Y-%m-%dT%H:%M:%SZ
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv
    python3 -c 'import torch, sys; print("python", sys.version.split()[0], "torch", torch.__version__)'
    cat .carry/commit .carry/status
} > "$D/machine.txt" 2>&1
pack() { tar czf "$OUT/h1.tar.gz" -C /tmp h1; }
empty=$(mktemp -d)
export FUSELAB_TUNING_FILE=$empty/tuning.json
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
S=results/runs/2026-12-07-gpu-s47  # copies of s38 shapes_h200_*.txt
for p in softmax rmsnorm_residual layernorm; do  # every row shape of results/h200.json (187)
    list=$common sel=""
    [ $p = layernorm ] && list+=" adjacent_row staged_row_4k staged_row_16k"
    [ $p = rmsnorm_residual ] && list+=" adjacent_row adjacent_staged_2k staged_row_16k"
    for s in $list; do sel+=" --schedule $s"; done
    # shellcheck disable=SC2046,SC2086
    timeout 120 python3 tools/row_grid.py --json $D/table_$p.json --pipeline $p --dtype float32 \
        --dtype bfloat16 --dtype float16 $(cat $S/shapes_h200_$p.txt) $sel > $D/table_$p.log 2>&1
    echo "row_grid table $p: exit $? at $SECONDS s: $(tail -1 $D/table_$p.log)" >> $D/log.txt
    pack
done
grid hidden --n 768 --n 1536 --n 2040 --n 2560 --n 3072 --n 4000 --n 5120 --n 6144 --n 11008 \
    --n 12288 --elements 26
cat $D/log.txt
