#!/usr/bin/env bash
# s30, this CPU machine: every CPU strategy of every pipeline at sizes the suite does not name (the
# choice's grid, issue 29), after the suite's own run (suite.json) in the same session: s29's
# grid sizes, more where s29's left a size with no measured neighbour (pre/grid.sh, a first
# pass before lane_rows existed), and shorter rows (N = 4, 8, 48), where lane_rows is for.
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
    $(sizes 4099 65536 131073 262147 1048576 2000000 4194304 8388608 33554432)
run wxh $(for p in blur3x3 stencil_chain_k2 stencil_chain_k4 stencil_chain_k8; do echo --pipeline $p; done) \
    $(sizes 512x512 640x360 768x768 1001x999 1920x1080 2048x2048 3000x2000 8192x1024)
run conv --pipeline conv_relu_pool $(sizes 640x480x3x16 1001x701x3x8 256x256x16x32 128x128x64x64 \
    320x240x16x32 256x256x32x32 512x512x8x16 160x120x64x64)
run convs --pipeline two_convs --pipeline two_convs_indep $(sizes 256x256x16x16 480x270x32x32 \
    1001x501x8x8 640x360x16x16 320x180x32x32)
run rows --pipeline softmax --pipeline rmsnorm_residual --pipeline layernorm \
    --dtype float32 --dtype bfloat16 --dtype float16 \
    $(sizes 4x1048576 8x524288 16x262144 33x131072 48x87381 64x65536 100x41943 184x22000 512x8192 \
        1000x4096 1417x2960 2048x2048 4099x1024 8192x512 12345x340 20000x210 30008x140 50000x84 \
        100003x40)
echo done
