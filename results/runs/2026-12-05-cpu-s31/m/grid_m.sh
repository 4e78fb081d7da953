#!/usr/bin/env bash
# s31: the row pipelines' CPU strategies at 2^21 and 2^23 elements a call, 8 row lengths each
# (s30's grid is 2^22, its m/ 2^19 and 2^25). The held-out seeds 3007 and 3008 (heldout/) lost
# most where the call's footprint sits near this machine's 32 MB L3 (softmax float32 4012x843:
# two_pass won by 1.15x where 4096x1024, 2^22, picks block_row), so the table gets the octaves
# either side. Every strategy and type, fuselab alone.
#   bash results/runs/2026-12-05-cpu-s31/m/grid_m.sh   (from the repository root; needs build/)
set -uo pipefail
R=results/runs/2026-12-05-cpu-s31/m
F=build/cli/fuselab
run() {  # name, then bench arguments
    local name=$1; shift
    local t0=$SECONDS
    $F bench --target cpu "$@" --json $R/grid_$name.json > $R/grid_$name.txt 2> $R/grid_$name.err
    echo "$name: exit $? in $((SECONDS - t0)) s: $(grep -E '^[0-9]+ rows' $R/grid_$name.txt)"
}
sizes() {  # elements, then row lengths
    local e=$1; shift
    for n in "$@"; do echo --size "${n}x$(((e + n / 2) / n))"; done
}
rows() { echo --pipeline softmax --pipeline rmsnorm_residual --pipeline layernorm \
    --dtype float32 --dtype bfloat16 --dtype float16; }
lengths="20 64 200 700 2500 9000 30000 100000"
run rows_m21 $(rows) $(sizes $((1 << 21)) $lengths)
run rows_m23 $(rows) $(sizes $((1 << 23)) $lengths)
echo done
