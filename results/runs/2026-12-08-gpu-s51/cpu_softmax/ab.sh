#!/usr/bin/env bash
# s51 (s47's cpu_ort/ab.sh): on this VM (a 2-core Intel Xeon, model 167; ../cpu_machine.txt),
# float32 softmax's fused CPU strategies beside the CPU peers (numpy, ONNX Runtime) at the CPU
# suite's three shapes and at 256x512 and 256x2048 (x and out together 1 MiB and 4 MiB: within
# the 2 MiB L2s and past them), ROUNDS rounds, each a fresh `fuselab bench`; then add_relu at 2^22
# elements (three streams: the copy's rate here) and layernorm bfloat16 `block_row` and
# `lane_rows` at 1000x33554 and 1000x67109 (2^25 and 2^26 elements). One line each: round
# pipeline strategy size us (the bench's median).
#   bash ab.sh ROUNDS > raw.txt   (from anywhere; the build in build/)
cd "$(dirname "$0")/../../../.." || exit 1
F=build/cli/fuselab
for k in $(seq 1 "$1"); do
    for s in 256x16384 4096x1024 65536x64 256x512 256x2048; do
        $F bench --target cpu --pipeline softmax --dtype float32 --size $s \
            --peers ".venv/bin/python peers/cpu_peers.py" 2>/dev/null |
            awk -v k="$k" '$1 == "softmax" && NF > 8 {print k, $1, $3, $2, $7}'
    done
    $F bench --target cpu --pipeline add_relu --schedule fused --size 4194304 2>/dev/null |
        awk -v k="$k" '$1 == "add_relu" && NF > 8 {print k, $1, $3, $2, $7, $11 " GB/s"}'
    $F bench --target cpu --pipeline layernorm --dtype bfloat16 --schedule block_row \
        --schedule lane_rows --size 1000x33554 --size 1000x67109 --no-check 2>/dev/null |
        awk -v k="$k" '$1 == "layernorm" && NF > 8 {print k, $1, $3, $2, $7}'
done
