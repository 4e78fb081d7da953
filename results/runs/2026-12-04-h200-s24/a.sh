#!/usr/bin/env bash
# s24's first call on the H200 (after `bash gpu/carry.sh`; carry .carry, and .carry_old: the
# libfuselab.so built at 13e372e, before this session's change, zstd -19). The block forms pad their
# rows (issue 30): staged_row_2k, staged_row_8k, staged_row_wide, block_row_2k and block_row_4k of
# the three row pipelines reduce over the row padded to a multiple of their threads' vectors
# (row_pad params; rows_forms.h: gpu_padded_block_rows). This call:
#   1. The CLI's CUDA sweep of those 45 variants at row lengths on each side of each rung and
#      multiple (1 to 65536), and at their row limits.
#   2. A/B in one call: tools/row_grid.py on the padded build and on 13e372e's (FUSELAB_LIBRARY),
#      those strategies at the suite's N (1024 .. 65536) and at N it never names (1417 .. 40000),
#      2^25 elements.
#   3. fuselab_tests over the row pipelines (every variant against float64).
# CALL (default a) names the folder; SIZES replaces the sweep's row lengths (a2: 15 of them, the
# 29 of a did not finish in 150 s).
set -uo pipefail
bash gpu/carry.sh --unpack || exit 1
z=zstd
command -v zstd > /dev/null || z=.carry/zstd
mkdir -p /tmp/old && $z -dc --long=30 .carry_old/libfuselab_old.so.zst -o /tmp/old/libfuselab.so || exit 1
export FUSELAB_REQUIRE_CUDA=1 PYTHONUNBUFFERED=1 FUSELAB_LIBRARY=python/fuselab/libfuselab.so
export FUSELAB_TORCH_EXT_DIR=/tmp/torch_ext
D=/tmp/${CALL:-a}
mkdir -p $D
{
    date -u +%Y-%m-%dT%H:%M:%SZ
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv
    grep -m1 "model name" /proc/cpuinfo; nproc
    python3 -c 'import torch, sys; print("python", sys.version.split()[0], "torch", torch.__version__)'
    cat .carry/commit .carry/status
} > "$OUT/machine.txt" 2>&1
pack() { tar czf "$OUT/${CALL:-a}.tar.gz" -C /tmp "${CALL:-a}"; }
padded="staged_row_2k staged_row_8k staged_row_wide block_row_2k block_row_4k"
vs=""
for p in softmax rmsnorm_residual layernorm; do
    for s in $padded; do
        for d in "" /bfloat16 /float16; do vs+=" --variant $p/$s$d"; done
    done
done
SIZES=${SIZES:-"1x3 7x2 8x3 1000x3 1024x2 1025x3 1031x2 2047x2 2048x2 2049x3 2056x2 4095x2 \
    4096x2 4097x2 4104x2 5989x2 8191x2 8192x2 8193x2 8200x2 10240x2 10241x2 12345x2 20480x2 \
    20481x2 24576x2 49152x2 49153x2 65536x2"}
sizes=""
for s in $SIZES; do
    sizes+=" --size $s"
done
# shellcheck disable=SC2086
timeout 150 python3 tests/test_cli_sweep.py .carry/fuselab --target cuda $vs $sizes \
    --no-default-size --jobs 14 > $D/sweep_padded.log 2>&1
echo "CLI sweep (padded block forms): exit $? at $SECONDS s: $(tail -1 $D/sweep_padded.log)" >> "$OUT/log.txt"
grep -E "^FAIL" $D/sweep_padded.log | head -20 >> "$OUT/log.txt"
pack
shapes=""
for s in 1024x32768 2048x16384 4096x8192 16384x2048 65536x512 1417x23680 2100x15978 3000x11185 \
    4104x8176 4664x7194 5989x5603 9000x3728 12345x2718 20000x1678 40000x839; do
    shapes+=" --shape $s"
done
sel=""
for s in $padded; do sel+=" --schedule $s"; done
# shellcheck disable=SC2086
timeout 100 python3 tools/row_grid.py --json $D/ab_new.json $shapes $sel > $D/ab_new.log 2>&1
echo "row_grid padded: exit $? at $SECONDS s: $(tail -1 $D/ab_new.log)" >> "$OUT/log.txt"
# shellcheck disable=SC2086
FUSELAB_LIBRARY=/tmp/old/libfuselab.so timeout 100 python3 tools/row_grid.py --json $D/ab_old.json \
    $shapes $sel > $D/ab_old.log 2>&1
echo "row_grid 13e372e: exit $? at $SECONDS s: $(tail -1 $D/ab_old.log)" >> "$OUT/log.txt"
pack
timeout 170 .carry/fuselab_tests --gtest_filter='*softmax*:*rmsnorm*:*layernorm*:Rows/*' > $D/rows_tests.log 2>&1
echo "fuselab_tests (rows): exit $? at $SECONDS s: $(grep -E '^\[  (PASSED|FAILED) ' $D/rows_tests.log | tr '\n' ' ')" >> "$OUT/log.txt"
grep -E "^\[  FAILED" $D/rows_tests.log | head -10 >> "$OUT/log.txt"
pack
cat "$OUT/log.txt"
