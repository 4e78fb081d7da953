#!/usr/bin/env bash
# s41: the CPU row pipelines before and after rows_common.h's cpu_rows_per_task (one share of the
# rows a thread, not tasks of 16K elements): two builds' fuselab (OLD, NEW) in alternating rounds
# of `fuselab bench --target cpu` over the three row pipelines, their suite sizes and three
# types, with the CPU peers (ONNX Runtime, numpy) in the NEW rounds. One line a (round, build,
# pipeline, size, dtype, name): us.
#   bash ab2.sh ROUNDS OLD NEW > raw.txt
cd "$(dirname "$0")/../../../.." || exit 1
rounds=$1 old=$2 new=$3
for k in $(seq 1 "$rounds"); do
    for b in old new; do
        bin=$old peers=()
        [ $b = new ] && bin=$new peers=(--peers ".venv/bin/python peers/cpu_peers.py")
        for p in softmax rmsnorm_residual layernorm; do
            "$bin" bench --target cpu --pipeline $p "${peers[@]}" 2>/dev/null |
                awk -v k="$k" -v b=$b '$1 == "'$p'" && NF > 8 {print k, b, $1, $2, $5, $3, $7}'
        done
    done
done
