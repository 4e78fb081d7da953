#!/usr/bin/env bash
# s25's call (carry .carry: the build with the change below, and .carry_old: the libfuselab.so of
# 2aa169a, whose kernels are HEAD's before it, zstd -19). Rows that are not whole aligned 16-byte
# vectors load and store element by element. In the staged block forms (staged_row_2k,
# staged_row_8k, staged_row_wide) the staging of such rows, and with one output the output too,
# now put a block's threads over adjacent elements (a warp's 2-byte access 64 contiguous bytes,
# not 32 elements 16 bytes apart); in the padded block forms (block_row_2k, block_row_4k) the
# output does. The statistics are unchanged, and the aligned kernels' PTX is byte for byte
# 2aa169a's (checked before the call: s25 notes.txt). Part 2 runs the build shipped, where each
# schedule file says in which types (Form::adjacent, chosen from part 1's A/B): its kernels are
# byte for byte part 1's new ones or 2aa169a's; a short sweep of the 39 variants checks it.
#   1. The CLI's CUDA sweep of the 39 changed variants at odd and unaligned row lengths.
#   2. fuselab_tests over the row pipelines.
#   3. A/B in one call: tools/row_grid.py on this build and on 2aa169a's, the changed strategies
#      at s22's grid (29 N, 2^21 .. 2^25 elements), the suite's six N and the unnamed N, and
#      held-out shapes (seed 2406, b.sh's); every fused strategy at the suite and unnamed N.
#   4. The peers at the unnamed N, beside the above (same call).
# Two calls: `bash e.sh 1` (1 to 3's grid), `bash e.sh 2` (3's suite, unnamed and held-out, and 4).
set -uo pipefail
PART=${1:-1}
bash gpu/carry.sh --unpack || exit 1
z=zstd
command -v zstd > /dev/null || z=.carry/zstd
mkdir -p /tmp/old && $z -dc --long=30 .carry_old/lib_2aa169a.so.zst -o /tmp/old/libfuselab.so || exit 1
export FUSELAB_REQUIRE_CUDA=1 PYTHONUNBUFFERED=1 FUSELAB_LIBRARY=python/fuselab/libfuselab.so
export FUSELAB_TORCH_EXT_DIR=/tmp/torch_ext
OLD=/tmp/old/libfuselab.so
D=/tmp/e$PART
mkdir -p $D
{
    date -u +%Y-%m-%dT%H:%M:%SZ
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv
    grep -m1 "model name" /proc/cpuinfo; nproc
    python3 -c 'import torch, sys; print("python", sys.version.split()[0], "torch", torch.__version__)'
    cat .carry/commit .carry/status
} > "$OUT/machine.txt" 2>&1
pack() { tar czf "$OUT/e$PART.tar.gz" -C /tmp "e$PART"; }
changed() {  # the changed strategies of pipeline $1
    case $1 in
        rmsnorm_residual) echo "staged_row_2k staged_row_8k staged_row_wide" ;;
        *) echo "staged_row_2k staged_row_8k staged_row_wide block_row_2k block_row_4k" ;;
    esac
}
if [ "$PART" = 1 ]; then
vs=""
for p in softmax layernorm rmsnorm_residual; do
    for s in $(changed $p); do
        for d in "" /bfloat16 /float16; do vs+=" --variant $p/$s$d"; done
    done
done
sizes=""
for s in 1x3 7x2 33x5 1001x3 1417x3 2049x3 2100x2 4097x2 4100x2 5989x2 8193x2 12345x2 20001x2 \
    49153x2 65537x2; do
    sizes+=" --size $s"
done
# shellcheck disable=SC2086
timeout 150 python3 tests/test_cli_sweep.py .carry/fuselab --target cuda $vs $sizes \
    --no-default-size --jobs 14 > $D/sweep_odd.log 2>&1
echo "CLI sweep (39 changed variants, odd rows): exit $? at $SECONDS s: $(tail -1 $D/sweep_odd.log)" >> "$OUT/log.txt"
grep -E "^FAIL" $D/sweep_odd.log | head -10 >> "$OUT/log.txt"
pack
timeout 100 .carry/fuselab_tests --gtest_filter='*softmax*:*layernorm*:*rmsnorm*:Rows/*' > $D/rows_tests.log 2>&1
echo "fuselab_tests (rows): exit $? at $SECONDS s: $(grep -E '^\[  (PASSED|FAILED) ' $D/rows_tests.log | tr '\n' ' ')" >> "$OUT/log.txt"
grep -E "^\[  FAILED" $D/rows_tests.log | head -10 >> "$OUT/log.txt"
pack
ns=""
for n in 184 221 280 377 448 557 736 901 1184 1417 1888 2265 2920 3775 4664 5989 7416 8863 \
    11936 14701 18112 22597 30008 37025 47968 59665 76272 93173 118624; do ns+=" --n $n"; done
grid="$ns --elements 21 --elements 23 --elements 25"
for p in softmax layernorm rmsnorm_residual; do
    sel=""
    for s in $(changed $p); do sel+=" --schedule $s"; done
    for lib in new old; do
        L=python/fuselab/libfuselab.so
        [ $lib = old ] && L=$OLD
        # shellcheck disable=SC2086
        FUSELAB_LIBRARY=$L timeout 60 python3 tools/row_grid.py --json $D/grid_${p}_$lib.json \
            --pipeline $p $grid $sel > $D/grid_${p}_$lib.log 2>&1
        echo "row_grid $p $lib: exit $? at $SECONDS s: $(tail -1 $D/grid_${p}_$lib.log)" >> "$OUT/log.txt"
    done
    pack
done
cat "$OUT/log.txt"
exit 0
fi
sizes=""
for s in 7x2 1001x3 4100x2 5989x2 12345x2 49153x2; do sizes+=" --size $s"; done
vs=""
for p in softmax layernorm rmsnorm_residual; do
    for s in $(changed $p); do
        for d in "" /bfloat16 /float16; do vs+=" --variant $p/$s$d"; done
    done
done
# shellcheck disable=SC2086
timeout 100 python3 tests/test_cli_sweep.py .carry/fuselab --target cuda $vs $sizes \
    --no-default-size --jobs 14 > $D/sweep_odd.log 2>&1
echo "CLI sweep (39 variants, odd rows): exit $? at $SECONDS s: $(tail -1 $D/sweep_odd.log)" >> "$OUT/log.txt"
grep -E "^FAIL" $D/sweep_odd.log | head -10 >> "$OUT/log.txt"
all=""
for s in block_row block_row_2k block_row_4k block_row_wide chunked_row staged_row_2k \
    staged_row_8k staged_row_wide warp_regs_1k warp_row; do all+=" --schedule $s"; done
csel=""
for s in $(changed softmax); do csel+=" --schedule $s"; done
unnamed="1417x23680 2100x15978 4664x7194 5989x5603 9000x3728 12345x2718"
shapes=""
for s in 256x262144 1024x65536 4096x16384 16384x4096 65536x1024 262144x256 $unnamed; do
    shapes+=" --shape $s"
done
# shellcheck disable=SC2086
timeout 60 python3 tools/row_grid.py --json $D/suite_unnamed.json $shapes $all > $D/suite_unnamed.log 2>&1
echo "row_grid suite + unnamed: exit $? at $SECONDS s: $(tail -1 $D/suite_unnamed.log)" >> "$OUT/log.txt"
# shellcheck disable=SC2086
FUSELAB_LIBRARY=$OLD timeout 40 python3 tools/row_grid.py --json $D/old_suite_unnamed.json $shapes \
    $csel > $D/old_suite_unnamed.log 2>&1
echo "row_grid 2aa169a suite + unnamed: exit $? at $SECONDS s: $(tail -1 $D/old_suite_unnamed.log)" >> "$OUT/log.txt"
held=$(python3 -c '
import numpy as np
d = np.random.default_rng(2406)
for _ in range(16):
    n = int(round(np.exp(d.uniform(np.log(200), np.log(120000)))))
    m = max(1, int(round(2 ** d.uniform(20, 26) / n)))
    print(f"--shape {n}x{m}", end=" ")')
for lib in new old; do
    L=python/fuselab/libfuselab.so
    [ $lib = old ] && L=$OLD
    # shellcheck disable=SC2086
    FUSELAB_LIBRARY=$L timeout 25 python3 tools/row_grid.py --json $D/heldout_$lib.json $held $csel \
        > $D/heldout_$lib.log 2>&1
    echo "row_grid held-out $lib: exit $? at $SECONDS s: $(tail -1 $D/heldout_$lib.log)" >> "$OUT/log.txt"
done
pack
sizes=""
for s in $unnamed; do sizes+=" --size $s"; done
left=$((560 - SECONDS))
[ $left -gt 150 ] && left=150
# shellcheck disable=SC2086
timeout $left python3 peers/peers.py --workload rows --skip-autotune --time-budget $((left - 10)) $sizes \
    --json $D/peers_unnamed.json > $D/peers_unnamed.log 2>&1
echo "peers (unnamed N): exit $? at $SECONDS s: $(tail -1 $D/peers_unnamed.log)" >> "$OUT/log.txt"
pack
cat "$OUT/log.txt"
