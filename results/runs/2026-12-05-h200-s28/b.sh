#!/usr/bin/env bash
# s28 call 2 (carry .carry: the build with rmsnorm_residual's adjacent_row and adjacent_staged_2k;
# every other CUDA variant byte-identical to bcdeb2c's, compared here before the call).
#   1. The CLI's CUDA sweep of the 6 new variants at odd, unaligned and aligned lengths.
#   2. fuselab_tests over rmsnorm_residual (the new variants' float64 and NaN/inf row cases).
#   3. tools/row_grid.py: every fused rmsnorm_residual strategy, the three types, s22's grid
#      (29 N, 2^23 and 2^25 elements), the suite's six N and the six unnamed N.
#   4. The peers at the unnamed N, rmsnorm_residual, the three types (same call as 3).
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
vs=""
for s in adjacent_row adjacent_staged_2k; do
    for d in float32 bfloat16 float16; do vs+=" --variant rmsnorm_residual/$s/$d"; done
done
sizes=""
for s in 1x3 7x2 33x5 1001x3 1417x3 2049x3 2100x2 4096x3 4097x2 4100x2 5989x2 8193x2 12345x2 \
    20001x2 49153x2 65537x2; do
    sizes+=" --size $s"
done
# shellcheck disable=SC2086
timeout 120 python3 tests/test_cli_sweep.py .carry/fuselab --target cuda $vs $sizes \
    --no-default-size --jobs 14 > $D/sweep_new.log 2>&1
echo "CLI sweep (6 new variants): exit $? at $SECONDS s: $(tail -1 $D/sweep_new.log)" >> $D/log.txt
grep -E "^FAIL" $D/sweep_new.log | head -10 >> $D/log.txt
pack
timeout 90 .carry/fuselab_tests --gtest_filter='*rmsnorm*' > $D/rms_tests.log 2>&1
echo "fuselab_tests (rmsnorm): exit $? at $SECONDS s: $(grep -E '^\[  (PASSED|FAILED) ' $D/rms_tests.log | tr '\n' ' ')" >> $D/log.txt
grep -E "^\[  FAILED" $D/rms_tests.log | head -10 >> $D/log.txt
pack
sel=""
for s in block_row block_row_2k block_row_4k block_row_wide chunked_row staged_row_2k staged_row_8k \
    staged_row_wide warp_regs_1k warp_row adjacent_row adjacent_staged_2k; do
    sel+=" --schedule $s"
done
ns=""
for n in 184 221 280 377 448 557 736 901 1184 1417 1888 2265 2920 3775 4664 5989 7416 8863 \
    11936 14701 18112 22597 30008 37025 47968 59665 76272 93173 118624; do ns+=" --n $n"; done
unnamed="1417x23680 2100x15978 4664x7194 5989x5603 9000x3728 12345x2718"
shapes=""
for s in 256x262144 1024x65536 4096x16384 16384x4096 65536x1024 262144x256 $unnamed; do
    shapes+=" --shape $s"
done
# shellcheck disable=SC2086
timeout 200 python3 tools/row_grid.py --json $D/grid.json --pipeline rmsnorm_residual \
    --dtype float32 --dtype bfloat16 --dtype float16 $ns --elements 23 --elements 25 $shapes $sel \
    > $D/grid.log 2>&1
echo "row_grid rmsnorm_residual: exit $? at $SECONDS s: $(tail -1 $D/grid.log)" >> $D/log.txt
pack
sizes=""
for s in $unnamed; do sizes+=" --size $s"; done
left=$((560 - SECONDS))
[ $left -gt 150 ] && left=150
# shellcheck disable=SC2086
timeout $left python3 peers/peers.py --workload rmsnorm_residual --dtype float32 --dtype bfloat16 \
    --dtype float16 --skip-autotune --time-budget $((left - 10)) $sizes \
    --json $D/peers_unnamed.json > $D/peers_unnamed.log 2>&1
echo "peers (unnamed N, rmsnorm_residual): exit $? at $SECONDS s: $(tail -1 $D/peers_unnamed.log)" >> $D/log.txt
pack
cat $D/log.txt
