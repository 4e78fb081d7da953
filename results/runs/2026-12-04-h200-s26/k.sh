#!/usr/bin/env bash
# s26 call 3 (carry .carry: the build with float16 converted by the hardware on every row, the
# rounding on rows that are not whole aligned 16-byte vectors behind a select on its bits
# (generators/storage.h: HalfRoute::Guarded, half_guarded; h/ and h2/ chose it), and .carry_old:
# the libfuselab.so of 5a2a2b6, whose kernels are HEAD's before it, zstd -19). The change touches
# the float16 row kernels for rows that are not whole aligned vectors only.
#   1. The CLI's CUDA sweep of every float16 row variant at odd, unaligned and aligned lengths.
#   2. fuselab_tests over the row pipelines (NaN and inf rows at N = 1000 and 1001 among them).
#   3. A/B in one call: tools/row_grid.py on this build and on 5a2a2b6's, every fused float16
#      strategy at s22's grid (29 N, 2^23 and 2^25 elements), the suite's six N and the unnamed N.
#   4. The peers at the unnamed N in float16, beside 3 (same call).
set -uo pipefail
bash gpu/carry.sh --unpack || exit 1
z=zstd
command -v zstd > /dev/null || z=.carry/zstd
mkdir -p /tmp/old && $z -dc --long=30 .carry_old/lib_5a2a2b6.so.zst -o /tmp/old/libfuselab.so || exit 1
export FUSELAB_REQUIRE_CUDA=1 PYTHONUNBUFFERED=1 FUSELAB_LIBRARY=python/fuselab/libfuselab.so
export FUSELAB_TORCH_EXT_DIR=/tmp/torch_ext
OLD=/tmp/old/libfuselab.so
D=/tmp/k
mkdir -p $D
{
    date -u +%Y-%m-%dT%H:%M:%SZ
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv
    grep -m1 "model name" /proc/cpuinfo; nproc
    python3 -c 'import torch, sys; print("python", sys.version.split()[0], "torch", torch.__version__)'
    cat .carry/commit .carry/status
} > "$D/machine.txt" 2>&1
pack() { tar czf "$OUT/k.tar.gz" -C /tmp k; }
ALL="auto unfused two_pass block_row block_row_2k block_row_4k block_row_wide chunked_row
    staged_row_2k staged_row_8k staged_row_wide warp_regs_1k warp_row"
FUSED="block_row block_row_2k block_row_4k block_row_wide chunked_row staged_row_2k staged_row_8k
    staged_row_wide warp_regs_1k warp_row"
vs=""
for p in softmax layernorm rmsnorm_residual; do
    for s in $ALL; do vs+=" --variant $p/$s/float16"; done
done
sizes=""
for s in 1x3 7x2 33x5 1001x3 1417x3 2049x3 2100x2 4096x3 4097x2 4100x2 5989x2 8193x2 12345x2 \
    20001x2 49153x2 65537x2; do
    sizes+=" --size $s"
done
# shellcheck disable=SC2086
timeout 170 python3 tests/test_cli_sweep.py .carry/fuselab --target cuda $vs $sizes \
    --no-default-size --jobs 14 > $D/sweep_f16.log 2>&1
echo "CLI sweep (39 float16 row variants): exit $? at $SECONDS s: $(tail -1 $D/sweep_f16.log)" >> $D/log.txt
grep -E "^FAIL" $D/sweep_f16.log | head -10 >> $D/log.txt
pack
timeout 100 .carry/fuselab_tests --gtest_filter='*softmax*:*layernorm*:*rmsnorm*:Rows/*' > $D/rows_tests.log 2>&1
echo "fuselab_tests (rows): exit $? at $SECONDS s: $(grep -E '^\[  (PASSED|FAILED) ' $D/rows_tests.log | tr '\n' ' ')" >> $D/log.txt
grep -E "^\[  FAILED" $D/rows_tests.log | head -10 >> $D/log.txt
pack
sel=""
for s in $FUSED; do sel+=" --schedule $s"; done
ns=""
for n in 184 221 280 377 448 557 736 901 1184 1417 1888 2265 2920 3775 4664 5989 7416 8863 \
    11936 14701 18112 22597 30008 37025 47968 59665 76272 93173 118624; do ns+=" --n $n"; done
unnamed="1417x23680 2100x15978 4664x7194 5989x5603 9000x3728 12345x2718"
shapes=""
for s in 256x262144 1024x65536 4096x16384 16384x4096 65536x1024 262144x256 $unnamed; do
    shapes+=" --shape $s"
done
for lib in new old; do
    L=python/fuselab/libfuselab.so
    [ $lib = old ] && L=$OLD
    # shellcheck disable=SC2086
    FUSELAB_LIBRARY=$L timeout 150 python3 tools/row_grid.py --json $D/grid_$lib.json --dtype float16 \
        $ns --elements 23 --elements 25 $shapes $sel > $D/grid_$lib.log 2>&1
    echo "row_grid float16 $lib: exit $? at $SECONDS s: $(tail -1 $D/grid_$lib.log)" >> $D/log.txt
    pack
done
sizes=""
for s in $unnamed; do sizes+=" --size $s"; done
left=$((570 - SECONDS))
[ $left -gt 120 ] && left=120
# shellcheck disable=SC2086
timeout $left python3 peers/peers.py --workload rows --dtype float16 --skip-autotune \
    --time-budget $((left - 10)) $sizes --json $D/peers_unnamed.json > $D/peers_unnamed.log 2>&1
echo "peers (unnamed N, float16): exit $? at $SECONDS s: $(tail -1 $D/peers_unnamed.log)" >> $D/log.txt
pack
cat $D/log.txt
