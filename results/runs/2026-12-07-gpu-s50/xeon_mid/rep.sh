#!/usr/bin/env bash
# s50: rows between one and eight AVX-512 vectors that 16 does not divide, on this VM (the 2-core
# Intel Xeon, model 207, AVX-512, of s47 to s49), for results/cpu_xeon.json. s49's held-out misses
# past 1.5x (layernorm float32 50x30894 and 51x28258: block_row, from 64x32768, where lane_rows
# won by 1.77x and 1.82x) found no measured row between N = 48 and N = 64 or 100 that 16 does not
# divide. Lengths 36, 50, 57, 72, 90 and 120 at 2^20, 2^22 and 2^25 elements; every strategy and
# type, fuselab alone, one pass.
#   bash results/runs/2026-12-07-gpu-s50/xeon_mid/rep.sh 1   (from the repository root; build/)
set -uo pipefail
P=${1:?pass}
R=results/runs/2026-12-07-gpu-s50/xeon_mid/p$P
mkdir -p $R
F=build/cli/fuselab
run() {  # name, then bench arguments
    local name=$1; shift
    local t0=$SECONDS
    $F bench --target cpu "$@" --json $R/$name.json > $R/$name.txt 2> $R/$name.err
    echo "$name: exit $? in $((SECONDS - t0)) s: $(grep -E '^[0-9]+ rows' $R/$name.txt)"
}
msizes() {  # elements, then row lengths
    local e=$1; shift
    for n in "$@"; do echo --size "${n}x$(((e + n / 2) / n))"; done
}
rows() { echo --pipeline softmax --pipeline rmsnorm_residual --pipeline layernorm \
    --dtype float32 --dtype bfloat16 --dtype float16; }
lengths="36 50 57 72 90 120"
date -u +%Y-%m-%dT%H:%M:%SZ
run mid_m20 $(rows) $(msizes $((1 << 20)) $lengths)
run mid_m22 $(rows) $(msizes $((1 << 22)) $lengths)
run mid_m25 $(rows) $(msizes $((1 << 25)) $lengths)
date -u +%Y-%m-%dT%H:%M:%SZ
