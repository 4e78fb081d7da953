#!/usr/bin/env bash
# s30, after grid.sh: the row pipelines' CPU strategies at other row counts, 2^25 and 2^19 elements
# a call (grid.sh's rows are all 2^22), so that a row shape with many more or many fewer rows than
# the grid's has a measured neighbour (heldout/: softmax float32 369x154118, 9.4x the nearest
# shape's rows, fell to the model and lost 1.20x). Every strategy and type, fuselab alone.
#   bash results/runs/2026-12-05-cpu-s30/m/grid_m.sh   (from the repository root; needs build/)
set -uo pipefail
R=results/runs/2026-12-05-cpu-s30/m
F=build/cli/fuselab
run() {  # name, then bench arguments
    local name=$1; shift
    local t0=$SECONDS
    $F bench --target cpu "$@" --json $R/grid_$name.json > $R/grid_$name.txt 2> $R/grid_$name.err
    echo "$name: exit $? in $((SECONDS - t0)) s: $(grep -E '^[0-9]+ rows' $R/grid_$name.txt)"
}
sizes() { for s in "$@"; do echo --size "$s"; done; }
rows() { echo --pipeline softmax --pipeline rmsnorm_residual --pipeline layernorm \
    --dtype float32 --dtype bfloat16 --dtype float16; }
run rows_m25 $(rows) $(sizes 16x2097152 48x699051 100x335544 256x131072 1000x33554 4096x8192 \
    16384x2048 65536x512)
run rows_m19 $(rows) $(sizes 16x32768 100x5243 1000x524 4096x128 16384x32 65536x8)
echo done
