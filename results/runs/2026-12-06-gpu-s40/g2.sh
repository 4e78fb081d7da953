#!/usr/bin/env bash
# s40's second GPU call, on the machine of g1 (the same build): the H200's tables for the exact
# kernels s39 shipped (never timed on an H200): every row strategy at s39's six exact row shapes
# (2048x32768, 4096x16, 4096x16384, 8192x8192, 16384x16, 16384x4096), three types; the suite's N
# and 2048 and 8192 at 2^26 elements beside the peers (peers/peers.py, the same call); then
# test_torch.py and test_python.py. On an H100 only the torch and Python tests run (s39 timed the
# H100's tables with these kernels).
set -uo pipefail
bash gpu/carry.sh --unpack || exit 1
export FUSELAB_REQUIRE_CUDA=1 PYTHONUNBUFFERED=1 FUSELAB_LIBRARY=python/fuselab/libfuselab.so
export FUSELAB_TORCH_EXT_DIR=/tmp/torch_ext
D=/tmp/g2
mkdir -p $D
{
    date -u +%Y-%m-%dT%H:%M:%SZ
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv
    python3 -c 'import torch, sys; print("python", sys.version.split()[0], "torch", torch.__version__)'
    cat .carry/commit .carry/status
} > "$D/machine.txt" 2>&1
pack() { tar czf "$OUT/g2.tar.gz" -C /tmp g2; }
empty=$(mktemp -d)
export FUSELAB_TUNING_FILE=$empty/tuning.json
common="adjacent_warp block_row block_row_2k block_row_4k block_row_wide chunked_row staged_row_2k staged_row_8k staged_row_wide warp_regs_1k warp_row"
h200=0
nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 && h200=1
if [ $h200 = 1 ]; then
    shapes="--shape 2048x32768 --shape 4096x16 --shape 4096x16384 --shape 8192x8192 --shape 16384x16 --shape 16384x4096"
    for p in softmax rmsnorm_residual layernorm; do
        list=$common
        [ $p = layernorm ] && list+=" adjacent_row staged_row_4k staged_row_16k"
        [ $p = rmsnorm_residual ] && list+=" adjacent_row adjacent_staged_2k staged_row_16k"
        sel=""
        for s in $list; do sel+=" --schedule $s"; done
        # shellcheck disable=SC2086
        timeout 60 python3 tools/row_grid.py --json $D/exact_$p.json --pipeline $p --dtype float32 \
            --dtype bfloat16 --dtype float16 $shapes $sel > $D/exact_$p.log 2>&1
        echo "row_grid exact shapes $p: exit $? at $SECONDS s: $(tail -1 $D/exact_$p.log)" >> $D/log.txt
        # shellcheck disable=SC2086
        timeout 60 python3 tools/row_grid.py --json $D/grid_$p.json --pipeline $p --dtype float32 \
            --dtype bfloat16 --dtype float16 --n 256 --n 1024 --n 2048 --n 4096 --n 8192 --n 16384 \
            --n 65536 --n 262144 --elements 26 $sel > $D/grid_$p.log 2>&1
        echo "row_grid suite $p: exit $? at $SECONDS s: $(tail -1 $D/grid_$p.log)" >> $D/log.txt
        pack
    done
    timeout 130 python3 peers/peers.py --workload rows --skip-autotune --time-budget 115 \
        --row-n 256 --row-n 1024 --row-n 2048 --row-n 4096 --row-n 8192 --row-n 16384 --row-n 65536 \
        --row-n 262144 --dtype float32 --dtype bfloat16 --dtype float16 \
        --json $D/peers_rows.json > $D/peers.log 2>&1
    echo "peers: exit $? at $SECONDS s: $(tail -1 $D/peers.log)" >> $D/log.txt
    pack
fi
timeout 110 python3 tests/test_torch.py > $D/torch_tests.log 2>&1
echo "test_torch.py: exit $? at $SECONDS s: $(tail -1 $D/torch_tests.log)" >> $D/log.txt
pack
timeout 60 python3 tests/test_python.py > $D/python_tests.log 2>&1
echo "test_python.py: exit $? at $SECONDS s: $(tail -1 $D/python_tests.log)" >> $D/log.txt
pack
cat $D/log.txt
