#!/usr/bin/env bash
# s29 call 3 (carry .carry: the build with adjacent_warp (softmax, rmsnorm_residual, layernorm)
# and layernorm's adjacent_row; every other CUDA variant's device code byte-identical to
# d32b09e's, compared here before the call; the choice's vector term and coverage rule).
#   1. The CLI's CUDA sweep of the 12 new variants at odd, unaligned and aligned lengths.
#   2. fuselab_tests over the row pipelines and the choice (float64, NaN and inf row cases).
#   3. tools/row_grid.py: every fused strategy of the three row pipelines, the three types, s22's
#      grid (29 N, 2^23 and 2^25 elements), the suite's six N and the six unnamed N.
#   4. Every CUDA variant through `fuselab run` at 4 sampled shapes (test_cli_sweep.py).
#   5. fuselab overhead --target cuda: the choice's cost (first call, new shapes, a seen one).
#   6. Time left: the peers at the unnamed N (softmax, layernorm), same call as 3.
# Not run in s29 (no GPU was lent after b/): for the next session with one, on its own build.
set -uo pipefail
bash gpu/carry.sh --unpack || exit 1
export FUSELAB_REQUIRE_CUDA=1 PYTHONUNBUFFERED=1 FUSELAB_LIBRARY=python/fuselab/libfuselab.so
export FUSELAB_TORCH_EXT_DIR=/tmp/torch_ext
D=/tmp/c
mkdir -p $D
{
    date -u +%Y-%m-%dT%H:%M:%SZ
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv
    grep -m1 "model name" /proc/cpuinfo; nproc
    python3 -c 'import torch, sys; print("python", sys.version.split()[0], "torch", torch.__version__)'
    cat .carry/commit .carry/status
} > "$D/machine.txt" 2>&1
pack() { tar czf "$OUT/c.tar.gz" -C /tmp c; }
vs=""
for p in softmax rmsnorm_residual layernorm; do
    for d in float32 bfloat16 float16; do vs+=" --variant $p/adjacent_warp/$d"; done
done
for d in float32 bfloat16 float16; do vs+=" --variant layernorm/adjacent_row/$d"; done
vs=${vs//\/float32/}
sizes=""
for s in 1x3 7x2 33x5 257x9 1001x3 1417x3 2049x3 2100x2 4096x3 4097x2 4100x2 5989x2 12345x2 \
    20001x2 65537x2; do
    sizes+=" --size $s"
done
# shellcheck disable=SC2086
timeout 120 python3 tests/test_cli_sweep.py .carry/fuselab --target cuda $vs $sizes \
    --no-default-size --jobs 14 > $D/sweep_new.log 2>&1
echo "CLI sweep (12 new variants): exit $? at $SECONDS s: $(tail -1 $D/sweep_new.log)" >> $D/log.txt
grep -E "^FAIL" $D/sweep_new.log | head -10 >> $D/log.txt
pack
timeout 120 .carry/fuselab_tests --gtest_filter='*oftmax*:*msnorm*:*ayernorm*:*Rows*:Measured*:Choose*' \
    > $D/rows_tests.log 2>&1
echo "fuselab_tests (rows, choice): exit $? at $SECONDS s: $(grep -E '^\[  (PASSED|FAILED) ' $D/rows_tests.log | tr '\n' ' ')" >> $D/log.txt
grep -E "^\[  FAILED" $D/rows_tests.log | head -10 >> $D/log.txt
pack
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
timeout 200 python3 tests/test_cli_sweep.py .carry/fuselab --target cuda --no-default-size \
    --jobs 12 > $D/sweep_sampled.log 2>&1
echo "CLI sweep (sampled shapes): exit $? at $SECONDS s: $(tail -1 $D/sweep_sampled.log)" >> $D/log.txt
grep -E "^FAIL|^summary" $D/sweep_sampled.log | head -12 >> $D/log.txt
pack
# The choice's own cost on the H200 host (issue 29: at most 50 us at a new shape), then the
# C++ layers of a call.
timeout 60 .carry/fuselab overhead --target cuda --json $D/overhead.json > $D/overhead.log 2>&1
echo "overhead (cuda): exit $? at $SECONDS s: $(head -3 $D/overhead.log | tr -s ' ' | tr '\n' ';')" >> $D/log.txt
pack
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
