#!/usr/bin/env bash
# s26 call 4 (carry .carry: the build as committed: float16 by the hardware (k.sh's build) but
# softmax's register forms, warp_row and warp_regs_1k, rounding through the bits on unaligned
# rows (their `params: half_round=bits`), and .carry_old: 5a2a2b6's libfuselab.so, zstd -19).
#   1. A/B, same call: softmax float16 warp_row and warp_regs_1k on this build and on 5a2a2b6's
#      at s22's grid (29 N, 2^23 and 2^25 elements), the suite's six N and the six unnamed N
#      (tools/row_grid.py).
#   2. The CLI's CUDA sweep of those two variants at odd, unaligned and aligned lengths.
#   3. Then at once: every CUDA variant through `fuselab run` (tests/test_cli_sweep.py, 4 sampled
#      shapes each, no default size: the default sizes of 2^28 elements with 14 workers outran
#      two calls in s25), and beside it fuselab_tests (every CUDA case), then the Python
#      pipeline-level calls (tests/test_choose.py) and row tests (tests/test_rows.py).
set -uo pipefail
bash gpu/carry.sh --unpack || exit 1
z=zstd
command -v zstd > /dev/null || z=.carry/zstd
mkdir -p /tmp/old && $z -dc --long=30 .carry_old/lib_5a2a2b6.so.zst -o /tmp/old/libfuselab.so || exit 1
export FUSELAB_REQUIRE_CUDA=1 PYTHONUNBUFFERED=1 FUSELAB_LIBRARY=python/fuselab/libfuselab.so
export FUSELAB_TORCH_EXT_DIR=/tmp/torch_ext
OLD=/tmp/old/libfuselab.so
D=/tmp/m
mkdir -p $D
{
    date -u +%Y-%m-%dT%H:%M:%SZ
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv
    grep -m1 "model name" /proc/cpuinfo; nproc
    python3 -c 'import torch, sys; print("python", sys.version.split()[0], "torch", torch.__version__)'
    cat .carry/commit .carry/status
} > "$D/machine.txt" 2>&1
pack() { tar czf "$OUT/m.tar.gz" -C /tmp m; }
trap pack EXIT
ns=""
for n in 184 221 280 377 448 557 736 901 1184 1417 1888 2265 2920 3775 4664 5989 7416 8863 \
    11936 14701 18112 22597 30008 37025 47968 59665 76272 93173 118624; do ns+=" --n $n"; done
shapes=""
for s in 256x262144 1024x65536 4096x16384 16384x4096 65536x1024 262144x256 1417x23680 2100x15978 \
    4664x7194 5989x5603 9000x3728 12345x2718; do shapes+=" --shape $s"; done
for lib in new old; do
    L=python/fuselab/libfuselab.so
    [ $lib = old ] && L=$OLD
    # shellcheck disable=SC2086
    FUSELAB_LIBRARY=$L timeout 60 python3 tools/row_grid.py --json $D/grid_$lib.json --dtype float16 \
        --pipeline softmax --schedule warp_row --schedule warp_regs_1k $ns --elements 23 \
        --elements 25 $shapes > $D/grid_$lib.log 2>&1
    echo "row_grid softmax float16 $lib: exit $? at $SECONDS s: $(tail -1 $D/grid_$lib.log)" >> $D/log.txt
done
pack
sizes=""
for s in 1x3 7x2 33x5 377x3 557x2 901x3 1001x3 1417x3 2049x3 4096x3 4097x2 12345x2; do
    sizes+=" --size $s"
done
# shellcheck disable=SC2086
timeout 60 python3 tests/test_cli_sweep.py .carry/fuselab --target cuda --variant softmax/warp_row/float16 \
    --variant softmax/warp_regs_1k/float16 $sizes --no-default-size --jobs 14 > $D/sweep_two.log 2>&1
echo "CLI sweep (the two): exit $? at $SECONDS s: $(tail -1 $D/sweep_two.log)" >> $D/log.txt
grep -E "^FAIL" $D/sweep_two.log | head -10 >> $D/log.txt
pack
(
    timeout 250 .carry/fuselab_tests > $D/tests.log 2>&1
    echo "fuselab_tests: exit $? at $SECONDS s: $(grep -E '^\[  (PASSED|FAILED|SKIPPED) ' $D/tests.log | tr '\n' ' ')" >> $D/log.txt
    grep -E "^\[  FAILED" $D/tests.log | head -10 >> $D/log.txt
    timeout 100 python3 tests/test_choose.py .carry/fuselab > $D/choose_tests.log 2>&1
    echo "pipeline-level calls (choose): exit $? at $SECONDS s: $(tail -1 $D/choose_tests.log)" >> $D/log.txt
    timeout 100 python3 tests/test_rows.py > $D/rows_tests.log 2>&1
    echo "row reductions (Python, torch): exit $? at $SECONDS s: $(tail -1 $D/rows_tests.log)" >> $D/log.txt
) &
left=$((575 - SECONDS))
timeout $left python3 tests/test_cli_sweep.py .carry/fuselab --target cuda --no-default-size \
    --jobs 12 > $D/sweep_cuda.log 2>&1
echo "CLI sweep (every CUDA variant, no default size): exit $? at $SECONDS s: $(tail -1 $D/sweep_cuda.log)" >> $D/log.txt
grep -E "^FAIL" $D/sweep_cuda.log | head -10 >> $D/log.txt
wait
cat $D/log.txt
