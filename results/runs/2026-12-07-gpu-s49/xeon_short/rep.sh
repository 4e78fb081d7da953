#!/usr/bin/env bash
# s49: short rows on this VM (the 2-core Intel Xeon, model 207, AVX-512, of s47 and s48) at two more
# element bands, for results/cpu_xeon.json: s48's table had rows of N = 3 to 15 at 2^22 elements
# only, so a short row of 2^25 elements (s48's held-out miss, rmsnorm_residual float16
# 14x2044289: block_row 2.09x behind lane_rows) found its nearest shapes among the rows of whole
# 16-lane vectors (16x2097152), where block_row wins. Lengths no 16 divides, at 2^20 and 2^25
# elements; every strategy and type, fuselab alone. Run twice (p1/, p2/); assemble.sh takes each
# cell's median with s48's passes.
#   bash results/runs/2026-12-07-gpu-s49/xeon_short/rep.sh 1   (from the repository root; build/)
set -uo pipefail
P=${1:?pass}
R=results/runs/2026-12-07-gpu-s49/xeon_short/p$P
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
lengths="5 7 10 13 24 28 40"
date -u +%Y-%m-%dT%H:%M:%SZ
run short_m20 $(rows) $(msizes $((1 << 20)) $lengths)
run short_m25 $(rows) $(msizes $((1 << 25)) $lengths)
date -u +%Y-%m-%dT%H:%M:%SZ
