#!/usr/bin/env bash
# s23's third call: why short rows that are not a power of 2 run 5x slower than those that are
# (b/: warp_regs_1k softmax bfloat16 3.64 TB/s at N = 256, 0.68 at 280, padded or not). Nsight
# Compute's speed-of-light, memory, warp-state, occupancy and launch sections over one call of
# each, same M x N bytes.
set -uo pipefail
[ -x .carry/fuselab ] || bash gpu/carry.sh --unpack || exit 1
D=/tmp/c
mkdir -p $D
for spec in "softmax warp_regs_1k bfloat16 256x131072" "softmax warp_regs_1k bfloat16 280x119837" \
    "softmax warp_row bfloat16 280x119837" "softmax warp_regs_1k float32 280x119837" \
    "softmax warp_regs_1k bfloat16 264x127100" "softmax block_row bfloat16 4096x8192" "softmax block_row bfloat16 4104x8176"; do
    read -r p s dt size <<< "$spec"
    f="$D/${p}__${s}__${dt}__${size}"
    timeout 60 ncu --clock-control none --section SpeedOfLight --section MemoryWorkloadAnalysis \
        --section WarpStateStats --section Occupancy --section LaunchStats \
        --print-details all --kernel-name regex:^_kernel .carry/fuselab bench --target cuda \
        --pipeline "$p" --schedule "$s" --dtype "$dt" --size "$size" --once --no-check \
        < /dev/null > "$f.txt" 2> "$f.err"
    echo "ncu $spec: exit $? at $SECONDS s" >> "$OUT/log.txt"
done
tar czf "$OUT/c.tar.gz" -C /tmp c
cat "$OUT/log.txt"
