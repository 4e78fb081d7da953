#!/usr/bin/env bash
# s22's second call on the H200 (after `bash gpu/carry.sh`; carry .carry). a.sh's grid through
# `fuselab bench` ran out of time: the bench times every call by host batches too (5 of at least
# 20 ms each), 0.25 s a strategy and shape, and no grid finished within its 150 s (nothing kept).
# This call times the grid with tools/row_grid.py instead (events after an L2 flush, as the
# bench's device timing, without the host batches), each (pipeline, type) saved as it finishes.
#   1. The torch ops' C++ (fuselab.kernel on torch tensors calls into it).
#   2. The row grid: 29 row lengths at third-octave steps from 184 to 118624 (aligned to 8 and odd
#      in turn, none a power of 2) at 2^21, 2^23 and 2^25 elements, every fused strategy, the
#      three types.
#   3. Held-out shapes for the choice: 16 shapes drawn as tools/choice_check.py --random draws
#      them (seed 2203: N log-uniform in 200 .. 120000, M making 2^20 .. 2^26 elements), every
#      strategy, the three types, the same timing. Not in the shipped table: they score it.
#   4. Nsight Compute's executed-instruction mix (per SASS opcode) of issue-bound 16-bit leaders:
#      layernorm at N = 4096 (staged_row_2k) and 256 (warp_regs_1k) in bfloat16, beside float32,
#      and softmax bfloat16 at 4096 (results/rows_ncu.md, s19).
#   5. peers/call_overhead.py in three processes, one after the other (issue 28: torch.ops'
#      add_relu against eager torch.add of the same process).
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
} > "$OUT/machine.txt" 2>&1
t0=$SECONDS
timeout 240 python3 -c 'import sys; sys.path.insert(0, "python"); import fuselab.torch_ops as T; print("backend", T.BACKEND, T.FALLBACK_REASON)' \
    > $D/torch_build.log 2>&1
echo "torch ops build: exit $? in $((SECONDS - t0)) s: $(grep backend $D/torch_build.log)" >> "$OUT/log.txt"
ns=""
for n in 184 221 280 377 448 557 736 901 1184 1417 1888 2265 2920 3775 4664 5989 7416 8863 \
    11936 14701 18112 22597 30008 37025 47968 59665 76272 93173 118624; do ns+=" --n $n"; done
sel=""
for s in block_row block_row_2k block_row_4k block_row_wide chunked_row staged_row_2k \
    staged_row_8k staged_row_wide warp_regs_1k warp_row; do sel+=" --schedule $s"; done
for p in softmax layernorm rmsnorm_residual; do
    # shellcheck disable=SC2086
    timeout 150 python3 tools/row_grid.py --json $D/grid_$p.json --pipeline $p $ns \
        --elements 21 --elements 23 --elements 25 $sel > $D/grid_$p.log 2>&1
    echo "row_grid $p: exit $? at $SECONDS s: $(tail -1 $D/grid_$p.log)" >> "$OUT/log.txt"
    tar czf "$OUT/b.tar.gz" -C /tmp b
done
shapes=$(python3 -c '
import numpy as np
d = np.random.default_rng(2203)
for _ in range(16):
    n = int(round(np.exp(d.uniform(np.log(200), np.log(120000)))))
    m = max(1, int(round(2 ** d.uniform(20, 26) / n)))
    print(f"--shape {n}x{m}", end=" ")')
echo "held-out shapes: $shapes" >> "$OUT/log.txt"
# shellcheck disable=SC2086
timeout 120 python3 tools/row_grid.py --json $D/heldout.json $shapes $sel > $D/heldout.log 2>&1
echo "row_grid held-out: exit $? at $SECONDS s: $(tail -1 $D/heldout.log)" >> "$OUT/log.txt"
tar czf "$OUT/b.tar.gz" -C /tmp b
mkdir -p $D/ncu
for spec in "layernorm staged_row_2k bfloat16 4096x8192" "layernorm staged_row_2k float32 4096x8192" \
    "layernorm warp_regs_1k bfloat16 256x131072" "softmax staged_row_2k bfloat16 4096x8192"; do
    read -r p s dt size <<< "$spec"
    f="$D/ncu/${p}__${s}__${dt}__${size}"
    timeout 40 ncu --clock-control none --section InstructionStats --section WarpStateStats \
        --print-details all --kernel-name regex:^_kernel .carry/fuselab bench --target cuda \
        --pipeline "$p" --schedule "$s" --dtype "$dt" --size "$size" --once --no-check \
        < /dev/null > "$f.txt" 2> "$f.err"
    echo "ncu $spec: exit $? at $SECONDS s" >> "$OUT/log.txt"
done
tar czf "$OUT/b.tar.gz" -C /tmp b
for k in 1 2 3; do
    timeout 60 python3 peers/call_overhead.py --device cuda --repeats 5 --json $D/call_overhead_$k.json \
        > $D/call_overhead_$k.txt 2>&1
    echo "call_overhead.py process $k: exit $? at $SECONDS s" >> "$OUT/log.txt"
    grep -E "add_relu |add \(one|fused\)" $D/call_overhead_$k.txt >> "$OUT/log.txt"
done
tar czf "$OUT/b.tar.gz" -C /tmp b
cat "$OUT/log.txt"
