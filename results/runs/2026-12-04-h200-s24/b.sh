#!/usr/bin/env bash
# s24's last call (carry .carry and .carry_old as a.sh; the build of a2 with the staged forms'
# padding unit set so that a thread takes two 16-byte steps of a statistic at a time in every
# type: staged_row_2k 2048, staged_row_8k 4096, staged_row_wide 8192). The row strategies' table
# again, in one call, for the choice's measured table and results/h200.md:
#   1. The CLI's CUDA sweep of the staged forms at row lengths around their new units.
#   2. tools/row_grid.py: s22's grid (29 row lengths from 184 to 118624 at 2^21, 2^23 and 2^25
#      elements, every fused strategy, the three types), the suite's six N at 2^26 elements and
#      N it never names (1417 .. 12345, 2^25 elements); then the five padded strategies on
#      13e372e's library (FUSELAB_LIBRARY) at the same shapes, so that either build's records of
#      them come from this call.
#   3. The peers (eager, torch.compile, Liger; --skip-autotune) and the copy at those unnamed N.
#   4. Held-out shapes for the choice: 16 drawn as tools/choice_check.py --random draws them, with
#      a seed no earlier call used (2406), every fused strategy (the padded five on both builds).
#   5. Issue 28's host costs: peers/call_overhead.py (its paths now timed in turn within each
#      repeat) and `fuselab overhead --target cuda` (C++), one after the other.
set -uo pipefail
[ -x .carry/fuselab ] || bash gpu/carry.sh --unpack || exit 1
z=zstd
command -v zstd > /dev/null || z=.carry/zstd
[ -f /tmp/old/libfuselab.so ] || { mkdir -p /tmp/old && $z -dc --long=30 .carry_old/libfuselab_old.so.zst -o /tmp/old/libfuselab.so; } || exit 1
export FUSELAB_REQUIRE_CUDA=1 PYTHONUNBUFFERED=1 FUSELAB_LIBRARY=python/fuselab/libfuselab.so
export FUSELAB_TORCH_EXT_DIR=/tmp/torch_ext
OLD=/tmp/old/libfuselab.so
D=/tmp/b
mkdir -p $D
{
    date -u +%Y-%m-%dT%H:%M:%SZ
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv
    grep -m1 "model name" /proc/cpuinfo; nproc
    python3 -c 'import torch, sys; print("python", sys.version.split()[0], "torch", torch.__version__)'
    cat .carry/commit .carry/status
} > "$OUT/machine.txt" 2>&1
pack() { tar czf "$OUT/b.tar.gz" -C /tmp b; }
padded="staged_row_2k staged_row_8k staged_row_wide block_row_2k block_row_4k"
vs=""
for p in softmax rmsnorm_residual layernorm; do
    for s in staged_row_2k staged_row_8k staged_row_wide; do
        for d in "" /bfloat16 /float16; do vs+=" --variant $p/$s$d"; done
    done
done
sizes=""
for s in 7x2 1000x3 2049x3 4104x2 5989x2 8193x2 8200x2 12345x2 20481x2 49153x2; do sizes+=" --size $s"; done
# shellcheck disable=SC2086
timeout 100 python3 tests/test_cli_sweep.py .carry/fuselab --target cuda $vs $sizes \
    --no-default-size --jobs 14 > $D/sweep_staged.log 2>&1
echo "CLI sweep (staged forms): exit $? at $SECONDS s: $(tail -1 $D/sweep_staged.log)" >> "$OUT/log.txt"
grep -E "^FAIL" $D/sweep_staged.log | head -10 >> "$OUT/log.txt"
pack
sel=""
for s in block_row block_row_2k block_row_4k block_row_wide chunked_row staged_row_2k \
    staged_row_8k staged_row_wide warp_regs_1k warp_row; do sel+=" --schedule $s"; done
psel=""
for s in $padded; do psel+=" --schedule $s"; done
ns=""
for n in 184 221 280 377 448 557 736 901 1184 1417 1888 2265 2920 3775 4664 5989 7416 8863 \
    11936 14701 18112 22597 30008 37025 47968 59665 76272 93173 118624; do ns+=" --n $n"; done
grid="$ns --elements 21 --elements 23 --elements 25"
for p in softmax layernorm rmsnorm_residual; do
    # shellcheck disable=SC2086
    timeout 100 python3 tools/row_grid.py --json $D/grid_$p.json --pipeline $p $grid $sel \
        > $D/grid_$p.log 2>&1
    echo "row_grid $p: exit $? at $SECONDS s: $(tail -1 $D/grid_$p.log)" >> "$OUT/log.txt"
    pack
done
unnamed="1417x23680 2100x15978 4664x7194 5989x5603 9000x3728 12345x2718"
shapes=""
for s in 256x262144 1024x65536 4096x16384 16384x4096 65536x1024 262144x256 $unnamed; do
    shapes+=" --shape $s"
done
# shellcheck disable=SC2086
timeout 60 python3 tools/row_grid.py --json $D/suite_unnamed.json $shapes $sel > $D/suite_unnamed.log 2>&1
echo "row_grid suite + unnamed: exit $? at $SECONDS s: $(tail -1 $D/suite_unnamed.log)" >> "$OUT/log.txt"
# shellcheck disable=SC2086
FUSELAB_LIBRARY=$OLD timeout 120 python3 tools/row_grid.py --json $D/old_grid.json $grid $psel \
    > $D/old_grid.log 2>&1
echo "row_grid 13e372e (padded five): exit $? at $SECONDS s: $(tail -1 $D/old_grid.log)" >> "$OUT/log.txt"
# shellcheck disable=SC2086
FUSELAB_LIBRARY=$OLD timeout 40 python3 tools/row_grid.py --json $D/old_suite_unnamed.json $shapes \
    $psel > $D/old_suite_unnamed.log 2>&1
echo "row_grid 13e372e suite + unnamed: exit $? at $SECONDS s: $(tail -1 $D/old_suite_unnamed.log)" >> "$OUT/log.txt"
pack
sizes=""
for s in $unnamed; do sizes+=" --size $s"; done
# shellcheck disable=SC2086
timeout 130 python3 peers/peers.py --workload rows --skip-autotune --time-budget 120 $sizes \
    --json $D/peers_unnamed.json > $D/peers_unnamed.log 2>&1
echo "peers (unnamed N): exit $? at $SECONDS s: $(tail -1 $D/peers_unnamed.log)" >> "$OUT/log.txt"
pack
shapes=$(python3 -c '
import numpy as np
d = np.random.default_rng(2406)
for _ in range(16):
    n = int(round(np.exp(d.uniform(np.log(200), np.log(120000)))))
    m = max(1, int(round(2 ** d.uniform(20, 26) / n)))
    print(f"--shape {n}x{m}", end=" ")')
echo "held-out shapes: $shapes" >> "$OUT/log.txt"
# shellcheck disable=SC2086
timeout 40 python3 tools/row_grid.py --json $D/heldout.json $shapes $sel > $D/heldout.log 2>&1
echo "row_grid held-out: exit $? at $SECONDS s: $(tail -1 $D/heldout.log)" >> "$OUT/log.txt"
# shellcheck disable=SC2086
FUSELAB_LIBRARY=$OLD timeout 25 python3 tools/row_grid.py --json $D/old_heldout.json $shapes $psel \
    > $D/old_heldout.log 2>&1
echo "row_grid 13e372e held-out: exit $? at $SECONDS s: $(tail -1 $D/old_heldout.log)" >> "$OUT/log.txt"
pack
timeout 90 python3 peers/call_overhead.py --device cuda --repeats 5 --json $D/call_overhead.json \
    > $D/call_overhead.txt 2>&1
echo "call_overhead.py: exit $? at $SECONDS s" >> "$OUT/log.txt"
timeout 40 .carry/fuselab overhead --target cuda --json $D/overhead_cpp.json > $D/overhead_cpp.txt 2>&1
echo "fuselab overhead (C++): exit $? at $SECONDS s" >> "$OUT/log.txt"
cat $D/call_overhead.txt >> "$OUT/log.txt"
pack
cat "$OUT/log.txt"
