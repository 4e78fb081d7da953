#!/usr/bin/env bash
# s26 call 5 (carry .carry: the build as committed: m.sh's, with softmax warp_regs_1k converting
# float16 both ways through the bits on unaligned rows (params: half_route=aligned, s25's route,
# with storage.h's shorter conversions), and .carry_old: 5a2a2b6's libfuselab.so, zstd -19).
#   1. The CLI's CUDA sweep of softmax/warp_regs_1k/float16 at odd, unaligned and aligned lengths.
#   2. A/B, same call: that variant on this build and on 5a2a2b6's at s22's grid's N <= 1024
#      (2^23 and 2^25 elements) and the suite's N = 256 and 1024 (tools/row_grid.py).
#   3. The other half of m.sh's sweep: every CUDA variant through `fuselab run` at its default
#      size (tests/test_cli_sweep.py --default-size-only; 6 workers: 2^28 elements each).
set -uo pipefail
bash gpu/carry.sh --unpack || exit 1
z=zstd
command -v zstd > /dev/null || z=.carry/zstd
mkdir -p /tmp/old && $z -dc --long=30 .carry_old/lib_5a2a2b6.so.zst -o /tmp/old/libfuselab.so || exit 1
export FUSELAB_REQUIRE_CUDA=1 PYTHONUNBUFFERED=1 FUSELAB_LIBRARY=python/fuselab/libfuselab.so
export FUSELAB_TORCH_EXT_DIR=/tmp/torch_ext
OLD=/tmp/old/libfuselab.so
D=/tmp/n
mkdir -p $D
{
    date -u +%Y-%m-%dT%H:%M:%SZ
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv
    grep -m1 "model name" /proc/cpuinfo; nproc
    python3 -c 'import torch, sys; print("python", sys.version.split()[0], "torch", torch.__version__)'
    cat .carry/commit .carry/status
} > "$D/machine.txt" 2>&1
pack() { tar czf "$OUT/n.tar.gz" -C /tmp n; }
trap pack EXIT
sizes=""
for s in 1x3 7x2 33x5 221x3 377x3 557x2 901x3 1001x3 1024x3 1025x2; do sizes+=" --size $s"; done
# shellcheck disable=SC2086
timeout 60 python3 tests/test_cli_sweep.py .carry/fuselab --target cuda \
    --variant softmax/warp_regs_1k/float16 $sizes --no-default-size --jobs 10 > $D/sweep_wr.log 2>&1
echo "CLI sweep (softmax/warp_regs_1k/float16): exit $? at $SECONDS s: $(tail -1 $D/sweep_wr.log)" >> $D/log.txt
grep -E "^FAIL" $D/sweep_wr.log | head -10 >> $D/log.txt
ns=""
for n in 184 221 280 377 448 557 736 901; do ns+=" --n $n"; done
for lib in new old; do
    L=python/fuselab/libfuselab.so
    [ $lib = old ] && L=$OLD
    # shellcheck disable=SC2086
    FUSELAB_LIBRARY=$L timeout 40 python3 tools/row_grid.py --json $D/grid_$lib.json --dtype float16 \
        --pipeline softmax --schedule warp_regs_1k $ns --elements 23 --elements 25 \
        --shape 256x262144 --shape 1024x65536 > $D/grid_$lib.log 2>&1
    echo "row_grid softmax warp_regs_1k float16 $lib: exit $? at $SECONDS s: $(tail -1 $D/grid_$lib.log)" >> $D/log.txt
done
pack
left=$((${N_LIMIT:-520} - SECONDS))
timeout $left python3 tests/test_cli_sweep.py .carry/fuselab --target cuda --default-size-only \
    --jobs 6 > $D/sweep_default.log 2>&1
echo "CLI sweep (every CUDA variant, the default size only): exit $? at $SECONDS s: $(tail -1 $D/sweep_default.log)" >> $D/log.txt
grep -E "^FAIL" $D/sweep_default.log | head -10 >> $D/log.txt
cat $D/log.txt
