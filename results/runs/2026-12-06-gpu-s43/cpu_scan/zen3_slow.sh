#!/usr/bin/env bash
# s43: do softmax/block_row's slow CPU shapes of s42 (a Zen 5 with AVX-512: float32 N = 280, 281,
# 720, float16 272, 274 at 2^22 elements) come on this session's Zen 3 (AVX2)? Each (type, N,
# strategy) a fresh `fuselab bench` process at N x 4194304/N; block_row beside recompute_row.
# One line: dtype N strategy us.
#   bash zen3_slow.sh > zen3_slow.txt   (from anywhere; the build in build/)
cd "$(dirname "$0")/../../../.." || exit 1
for d in float32 float16; do
    for n in 256 257 264 272 274 280 281 288 300 720; do
        for s in block_row recompute_row; do
            m=$((4194304 / n))
            echo "$d $n $s $(build/cli/fuselab bench --target cpu --pipeline softmax --schedule $s \
                --dtype $d --size ${n}x$m --no-check 2>/dev/null |
                awk '$1 == "softmax" && NF > 8 {print $7}')"
        done
    done
done
