#!/usr/bin/env bash
# s18's fourth call on the H200 (same carry): more measured row shapes for the choice (issue 29):
# 24 shapes drawn as tools/choice_check.py --random draws them (N log-uniform in 200 .. 120000, M
# rows making 2^20 .. 2^26 elements) with another seed (2718) than the check's (1803), every
# fused row strategy, the three types, one `fuselab bench` a pipeline (its JSON written as it
# goes; cut at 170 s).
set -uo pipefail
bash gpu/carry.sh --unpack || exit 1
export PYTHONUNBUFFERED=1
mkdir -p /tmp/d
{ date -u +%Y-%m-%dT%H:%M:%SZ; nvidia-smi --query-gpu=name,driver_version --format=csv; cat .carry/commit .carry/status; } > "$OUT/machine.txt" 2>&1
sizes=$(python3 -c '
import numpy as np
d = np.random.default_rng(2718)
out = []
for _ in range(24):
    n = int(round(np.exp(d.uniform(np.log(200), np.log(120000)))))
    m = max(1, int(round(2 ** d.uniform(20, 26) / n)))
    out.append(f"--size {n}x{m}")
print(" ".join(out))')
echo "sizes: $sizes" >> "$OUT/log.txt"
sel=""
for s in warp_regs_1k warp_row block_row block_row_wide block_row_2k block_row_4k staged_row_2k \
    staged_row_8k staged_row_wide; do sel+=" --schedule $s"; done
for p in softmax rmsnorm_residual layernorm; do
    # shellcheck disable=SC2086
    timeout 170 .carry/fuselab bench --target cuda --pipeline "$p" $sel $sizes \
        --dtype float32 --dtype bfloat16 --dtype float16 \
        --budget 0.03 --device-budget 0.015 --no-check --json "/tmp/d/random_$p.json" \
        2>> /tmp/d/bench.log | tail -1 >> "$OUT/log.txt"
    echo "random $p: exit ${PIPESTATUS[0]} at $SECONDS s" >> "$OUT/log.txt"
done
tar czf "$OUT/d.tar.gz" -C /tmp d
cat "$OUT/log.txt"
