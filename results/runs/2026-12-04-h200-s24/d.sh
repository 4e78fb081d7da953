#!/usr/bin/env bash
# s24's fifth call (carry .carry, the build with the change below, and .carry_old: the
# libfuselab.so of 2aa169a, the shipped padded forms, zstd -19). Rows that are not whole aligned
# 16-byte vectors (odd N; N not a multiple of 8 in 16-bit) load element by element; in the padded
# block forms (softmax's and layernorm's staged_row_8k, block_row_2k, block_row_4k) their
# statistics, staging and output now put the threads over adjacent elements there (a warp's
# 2-byte load 64 contiguous bytes, not 32 elements 16 bytes apart): a specialization of each
# statistic's update, of the staged row and of the output on !aligned (rows_forms.h; not
# shipped: odd_rows_prototype.diff, notes.txt).
#   1. The CLI's CUDA sweep of those 18 variants at odd and unaligned row lengths.
#   2. fuselab_tests over the row pipelines.
#   3. A/B in one call: tools/row_grid.py on this build and on 2aa169a's, those strategies at s22's
#      grid (every other N there is odd), the suite's six N and the unnamed N, and b.sh's held-out
#      shapes (seed 2406): this build's records are the table's if it ships.
set -uo pipefail
bash gpu/carry.sh --unpack || exit 1
z=zstd
command -v zstd > /dev/null || z=.carry/zstd
mkdir -p /tmp/old && $z -dc --long=30 .carry_old/lib_2aa169a.so.zst -o /tmp/old/libfuselab.so || exit 1
export FUSELAB_REQUIRE_CUDA=1 PYTHONUNBUFFERED=1 FUSELAB_LIBRARY=python/fuselab/libfuselab.so
export FUSELAB_TORCH_EXT_DIR=/tmp/torch_ext
D=/tmp/d
mkdir -p $D
{
    date -u +%Y-%m-%dT%H:%M:%SZ
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv
    cat .carry/commit .carry/status
} > "$OUT/machine.txt" 2>&1
pack() { tar czf "$OUT/d.tar.gz" -C /tmp d; }
vs=""
for p in softmax layernorm; do
    for s in staged_row_8k block_row_2k block_row_4k; do
        for d in "" /bfloat16 /float16; do vs+=" --variant $p/$s$d"; done
    done
done
sizes=""
for s in 1x3 7x2 33x5 1001x3 1417x3 2049x3 2100x2 4097x2 4104x2 5989x2 8193x2 12345x2 20001x2 \
    49153x2 65537x2; do
    sizes+=" --size $s"
done
# shellcheck disable=SC2086
timeout 90 python3 tests/test_cli_sweep.py .carry/fuselab --target cuda $vs $sizes \
    --no-default-size --jobs 14 > $D/sweep_odd.log 2>&1
echo "CLI sweep (padded forms, odd rows): exit $? at $SECONDS s: $(tail -1 $D/sweep_odd.log)" >> "$OUT/log.txt"
grep -E "^FAIL" $D/sweep_odd.log | head -10 >> "$OUT/log.txt"
pack
sel=""
for s in staged_row_8k block_row_2k block_row_4k; do sel+=" --schedule $s"; done
ns=""
for n in 184 221 280 377 448 557 736 901 1184 1417 1888 2265 2920 3775 4664 5989 7416 8863 \
    11936 14701 18112 22597 30008 37025 47968 59665 76272 93173 118624; do ns+=" --n $n"; done
args="--pipeline softmax --pipeline layernorm $ns --elements 21 --elements 23 --elements 25"
for s in 256x262144 1024x65536 4096x16384 16384x4096 65536x1024 262144x256 \
    1417x23680 2100x15978 4664x7194 5989x5603 9000x3728 12345x2718; do args+=" --shape $s"; done
held=$(python3 -c '
import numpy as np
d = np.random.default_rng(2406)
for _ in range(16):
    n = int(round(np.exp(d.uniform(np.log(200), np.log(120000)))))
    m = max(1, int(round(2 ** d.uniform(20, 26) / n)))
    print(f"--shape {n}x{m}", end=" ")')
for lib in new old; do
    L=python/fuselab/libfuselab.so
    [ $lib = old ] && L=/tmp/old/libfuselab.so
    # shellcheck disable=SC2086
    FUSELAB_LIBRARY=$L timeout 75 python3 tools/row_grid.py --json $D/grid_$lib.json $args $sel \
        > $D/grid_$lib.log 2>&1
    echo "row_grid $lib: exit $? at $SECONDS s: $(tail -1 $D/grid_$lib.log)" >> "$OUT/log.txt"
    # shellcheck disable=SC2086
    FUSELAB_LIBRARY=$L timeout 20 python3 tools/row_grid.py --json $D/heldout_$lib.json \
        --pipeline softmax --pipeline layernorm $held $sel > $D/heldout_$lib.log 2>&1
    echo "row_grid held-out $lib: exit $? at $SECONDS s: $(tail -1 $D/heldout_$lib.log)" >> "$OUT/log.txt"
    pack
done
pack
timeout 120 .carry/fuselab_tests --gtest_filter='*softmax*:*layernorm*:Rows/*' > $D/rows_tests.log 2>&1
echo "fuselab_tests (softmax, layernorm): exit $? at $SECONDS s: $(grep -E '^\[  (PASSED|FAILED) ' $D/rows_tests.log | tr '\n' ' ')" >> "$OUT/log.txt"
grep -E "^\[  FAILED" $D/rows_tests.log | head -10 >> "$OUT/log.txt"
pack
cat "$OUT/log.txt"
