#!/usr/bin/env bash
# s24's third call (carry .carry and .carry_old as a.sh): Nsight Compute of the padded block forms
# where a.sh timed them slower than 13e372e's, rows past their ladder (a run-time padded extent):
# layernorm staged_row_8k float32 at N = 16384 (2.23 against 3.39 TB/s) and softmax staged_row_2k
# bfloat16 at N = 4096 (2.87 against 3.29), each beside the same kernel of 13e372e's library and
# beside the padded form inside its ladder (N = 8192 and 2048: a constant padded extent).
set -uo pipefail
[ -x .carry/fuselab ] || bash gpu/carry.sh --unpack || exit 1
z=zstd
command -v zstd > /dev/null || z=.carry/zstd
[ -f /tmp/old/libfuselab.so ] || { mkdir -p /tmp/old && $z -dc --long=30 .carry_old/libfuselab_old.so.zst -o /tmp/old/libfuselab.so; } || exit 1
export FUSELAB_REQUIRE_CUDA=1 PYTHONUNBUFFERED=1
D=/tmp/c
mkdir -p $D
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv > "$OUT/machine.txt"; cat .carry/commit >> "$OUT/machine.txt"
for spec in "layernorm staged_row_8k float32 16384x2048" "layernorm staged_row_8k float32 8192x4096" \
    "softmax staged_row_2k bfloat16 4096x8192" "softmax staged_row_2k bfloat16 2048x16384"; do
    read -r p s dt size <<< "$spec"
    for lib in new old; do
        L=python/fuselab/libfuselab.so
        [ $lib = old ] && L=/tmp/old/libfuselab.so
        f="$D/${p}__${s}__${dt}__${size}__$lib"
        FUSELAB_LIBRARY=$L timeout 60 ncu --clock-control none --kernel-name regex:^_kernel \
            --launch-skip 2 --launch-count 1 --section SpeedOfLight --section Occupancy \
            --section LaunchStats --section WarpStateStats --section InstructionStats \
            --section MemoryWorkloadAnalysis --print-details all \
            python3 tools/row_grid.py --json "$f.json" --shape "$size" --pipeline "$p" --dtype "$dt" \
            --schedule "$s" --warmup 2 --repeats 1 > "$f.txt" 2> "$f.err"
        echo "ncu $spec $lib: exit $? at $SECONDS s" >> "$OUT/log.txt"
    done
    tar czf "$OUT/c.tar.gz" -C /tmp c
done
cat "$OUT/log.txt"
