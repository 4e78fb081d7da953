#!/usr/bin/env bash
# s42: softmax/block_row on the CPU, two builds (OLD: ex from halide_malloc a task; NEW: ex in
# MemoryType::Stack) in alternating rounds, each (build, N, type) a fresh process of `fuselab
# bench` at N x (2^21 / N). One line: round build dtype N us.
#   bash ab_stack.sh ROUNDS OLD NEW [N ...] > raw.txt
cd "$(dirname "$0")/../../../.." || exit 1
rounds=$1 old=$2 new=$3; shift 3
ns=${*:-64 200 256 257 300 1000 1024 4096 4100 16384 65536}
for k in $(seq 1 "$rounds"); do
    for b in old new; do
        bin=$old
        [ $b = new ] && bin=$new
        for d in float32 bfloat16; do
            for n in $ns; do
                m=$((2097152 / n))
                us=$("$bin" bench --target cpu --pipeline softmax --schedule block_row --dtype $d \
                    --size ${n}x$m --no-check 2>/dev/null | awk '$1 == "softmax" && NF > 8 {print $7}')
                echo "$k $b $d $n $us"
            done
        done
    done
done
