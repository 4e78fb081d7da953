#!/usr/bin/env bash
# s29, this CPU machine: every CPU strategy of every pipeline at sizes the suite does not name
# (issue 29: a denser measured grid, so that the CPU choice has neighbours), one `fuselab bench`
# a pipeline family, after the suite's own run (suite.json) in the same session.
#   bash results/runs/2026-12-05-cpu-s29/grid.sh   (from the repository root; needs build/)
set -uo pipefail
R=results/runs/2026-12-05-cpu-s29
F=build/cli/fuselab
run() {  # name, then bench arguments
    local name=$1; shift
    local t0=$SECONDS
    $F bench --target cpu "$@" --json $R/grid_$name.json > $R/grid_$name.txt 2> $R/grid_$name.err
    echo "$name: exit $? in $((SECONDS - t0)) s: $(grep -E '^[0-9]+ rows' $R/grid_$name.txt)"
}
sizes() { for s in "$@"; do echo --size "$s"; done; }
run n $(for p in add_relu pointwise_chain branches branches_indep; do echo --pipeline $p; done) \
    $(sizes 4099 65536 262147 1048576 4194304)
run wxh $(for p in blur3x3 stencil_chain_k2 stencil_chain_k4 stencil_chain_k8; do echo --pipeline $p; done) \
    $(sizes 512x512 1001x999 1920x1080 8192x1024)
run conv --pipeline conv_relu_pool $(sizes 640x480x3x16 1001x701x3x8 256x256x16x32 128x128x64x64)
run convs --pipeline two_convs --pipeline two_convs_indep $(sizes 256x256x16x16 480x270x32x32 1001x501x8x8)
run rows --pipeline softmax --pipeline rmsnorm_residual --pipeline layernorm \
    --dtype float32 --dtype bfloat16 --dtype float16 \
    $(sizes 33x131072 184x22000 1000x4096 1417x2960 4099x1024 12345x340 30008x140 100003x40)
