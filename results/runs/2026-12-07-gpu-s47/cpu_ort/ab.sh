#!/usr/bin/env bash
# s47 (s43's cpu_ort/ab.sh): on this VM, a 2-core Intel Xeon (model 207, AVX-512), the row
# pipelines at the CPU suite's sizes, every fused CPU strategy beside the CPU peers (numpy, ONNX
# Runtime), float32, ROUNDS rounds, each a fresh `fuselab bench`. One line: round pipeline name
# size us (the bench's median).   bash ab.sh ROUNDS > raw.txt   (from anywhere; the build in build/)
cd "$(dirname "$0")/../../../.." || exit 1
for k in $(seq 1 "$1"); do
    for p in softmax rmsnorm_residual layernorm; do
        build/cli/fuselab bench --target cpu --pipeline $p --dtype float32 \
            --peers ".venv/bin/python peers/cpu_peers.py" 2>/dev/null |
            awk -v k="$k" -v p="$p" '$1 == p && NF > 8 {print k, p, $3, $2, $7}'
    done
done
