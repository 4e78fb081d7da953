#!/usr/bin/env bash
# s30, this CPU machine (the same 2-core AMD EPYC VM kind as s29's): every CPU strategy of every
# pipeline at more sizes the suite does not name, where s29's grid left a size with no measured
# neighbour (issue 29's CPU leave-one-out: rows of N = 33, conv_relu_pool 256x256x16x32,
# pointwise_chain 16777216, blur3x3 512x512 and 1001x999), one `fuselab bench` a pipeline family.
#   bash results/runs/2026-12-05-cpu-s30/grid.sh   (from the repository root; needs build/)
set -uo pipefail
R=results/runs/2026-12-05-cpu-s30
F=build/cli/fuselab
run() {  # name, then bench arguments
    local name=$1; shift
    local t0=$SECONDS
    $F bench --target cpu "$@" --json $R/grid_$name.json > $R/grid_$name.txt 2> $R/grid_$name.err
    echo "$name: exit $? in $((SECONDS - t0)) s: $(grep -E '^[0-9]+ rows' $R/grid_$name.txt)"
}
sizes() { for s in "$@"; do echo --size "$s"; done; }
run n $(for p in add_relu pointwise_chain branches branches_indep; do echo --pipeline $p; done) \
    $(sizes 131073 2000000 8388608 33554432)
run wxh $(for p in blur3x3 stencil_chain_k2 stencil_chain_k4 stencil_chain_k8; do echo --pipeline $p; done) \
    $(sizes 640x360 768x768 2048x2048 3000x2000)
run conv --pipeline conv_relu_pool $(sizes 320x240x16x32 256x256x32x32 512x512x8x16 160x120x64x64)
run convs --pipeline two_convs --pipeline two_convs_indep $(sizes 640x360x16x16 320x180x32x32)
run rows --pipeline softmax --pipeline rmsnorm_residual --pipeline layernorm \
    --dtype float32 --dtype bfloat16 --dtype float16 \
    $(sizes 16x262144 64x65536 100x41943 512x8192 2048x2048 8192x512 20000x210 50000x84)
echo done
