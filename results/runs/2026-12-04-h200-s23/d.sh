#!/usr/bin/env bash
# s23's sixth call (carry 068772d, the padded build of a/ and b/):
#   1. Held-out shapes for the choice: 16 shapes drawn as tools/choice_check.py --random draws them
#      (seed 2305: N log-uniform in 200 .. 120000, M making 2^20 .. 2^26 elements), every fused
#      strategy, the three types, row_grid.py's timing. Not in the shipped table: they score it
#      (heldout_score.txt, scored here from the committed results/measured.json).
#   2. Nsight Compute over the padded register form at N = 184, where the 16-bit layernorm and
#      rmsnorm_residual stay behind torch.compile: bfloat16 against float32.
set -uo pipefail
[ -x .carry/fuselab ] || bash gpu/carry.sh --unpack || exit 1
export FUSELAB_REQUIRE_CUDA=1 PYTHONUNBUFFERED=1 FUSELAB_LIBRARY=python/fuselab/libfuselab.so
export FUSELAB_TORCH_EXT_DIR=/tmp/torch_ext
D=/tmp/d
mkdir -p $D/ncu
cat .carry/commit > "$OUT/machine.txt"; nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv >> "$OUT/machine.txt"
shapes=$(python3 -c '
import numpy as np
d = np.random.default_rng(2305)
for _ in range(16):
    n = int(round(np.exp(d.uniform(np.log(200), np.log(120000)))))
    m = max(1, int(round(2 ** d.uniform(20, 26) / n)))
    print(f"--shape {n}x{m}", end=" ")')
echo "held-out shapes: $shapes" >> "$OUT/log.txt"
sel=""
for s in block_row block_row_2k block_row_4k block_row_wide chunked_row staged_row_2k \
    staged_row_8k staged_row_wide warp_regs_1k warp_row; do sel+=" --schedule $s"; done
# shellcheck disable=SC2086
timeout 150 python3 tools/row_grid.py --json $D/heldout.json $shapes $sel > $D/heldout.log 2>&1
echo "row_grid held-out: exit $? at $SECONDS s: $(tail -1 $D/heldout.log)" >> "$OUT/log.txt"
tar czf "$OUT/d.tar.gz" -C /tmp d
for spec in "layernorm bfloat16 184x182361" "layernorm float32 184x182361" \
    "rmsnorm_residual bfloat16 184x182361" "softmax bfloat16 184x182361" "layernorm bfloat16 256x131072"; do
    read -r p dt size <<< "$spec"
    f="$D/ncu/${p}__warp_regs_1k__${dt}__${size}"
    timeout 60 ncu --clock-control none --section SpeedOfLight --section WarpStateStats \
        --section Occupancy --section LaunchStats --section InstructionStats --print-details all \
        --kernel-name regex:^_kernel .carry/fuselab bench --target cuda --pipeline "$p" \
        --schedule warp_regs_1k --dtype "$dt" --size "$size" --once --no-check < /dev/null > "$f.txt" 2> "$f.err"
    echo "ncu $spec: exit $? at $SECONDS s" >> "$OUT/log.txt"
done
tar czf "$OUT/d.tar.gz" -C /tmp d
cat "$OUT/log.txt"
