#!/usr/bin/env bash
# One H200 call for issue 14's GPU candidates: the new strategies beside the current best ones, one
# `fuselab bench` process per pipeline (outputs checked against float64 at the default sizes
# first), then the CUDA tests of the new strategies. About 4 minutes on an H200 (the parts' times
# are in the log); logs and JSON go to $OUT.
#   BIN   the folder holding fuselab and fuselab_tests (default .carry; ./fuselab build puts them
#         in build/bench and build/tests)
#   PARTS which parts to run (default: all of them, in this order):
#         stencil blur two_convs conv peers tests
#   CONST_CONV=1 also times conv_relu_pool_c3k16 (the scalar-weights generator), once the runtime
#         passes scalars and that pipeline is in cmake/pipelines.cmake
# Usage: OUT=/tmp/tune BIN=.carry bash bench/tune_h200.sh
set -uo pipefail
BIN="${BIN:-.carry}"
OUT="${OUT:-/tmp/fuselab-tune}"
PARTS="${PARTS:-stencil blur two_convs conv peers tests}"
mkdir -p "$OUT"
FUSELAB="$BIN/fuselab"
[ -x "$FUSELAB" ] || FUSELAB="$BIN/bench/fuselab"
TESTS="$BIN/fuselab_tests"
[ -x "$TESTS" ] || TESTS="$BIN/tests/fuselab_tests"
log="$OUT/tune.log"
say() { echo "== $(date -u +%H:%M:%S) $*" | tee -a "$log"; }
{
    date -u +%Y-%m-%dT%H:%M:%SZ
    nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv
} > "$OUT/machine.txt" 2>&1

# bench PIPELINE NAME SCHEDULE...: one process, the named strategies at the default sizes.
bench() {
    local p=$1 name=$2
    shift 2
    local args=()
    for s in "$@"; do args+=(--schedule "$s"); done
    say "bench $p: $*"
    "$FUSELAB" bench --target cuda --pipeline "$p" "${args[@]}" --budget 0.3 --json "$OUT/$name.json" \
        2>>"$OUT/bench.err" | tee -a "$log"
}

for part in $PARTS; do
    case "$part" in
    stencil)
        # Best so far: inline_all (K = 2, 4), auto (K = 8: 4 kernels); tiled as the one-kernel
        # shared-memory form.
        bench stencil_chain_k2 stencil_k2 inline_all line_buffer line_buffer_r16 line_buffer_v8
        bench stencil_chain_k4 stencil_k4 inline_all tiled line_buffer line_buffer_r16 \
            line_buffer_v8
        bench stencil_chain_k8 stencil_k8 auto tiled line_buffer line_buffer_r16
        ;;
    blur)
        bench blur3x3 blur inline_rows line_buffer line_buffer_r16 line_buffer_v8
        ;;
    two_convs)
        bench two_convs two_convs separate separate_shared horizontal
        bench two_convs_indep two_convs_indep separate separate_shared horizontal
        ;;
    conv)
        bench conv_relu_pool conv tiled shared_weights shared_weights_b32x8 shared_weights_k8 \
            hand_const
        if [ -n "${CONST_CONV:-}" ]; then
            bench conv_relu_pool_c3k16 conv_const const_tiled const_b32x4
        fi
        ;;
    peers)
        # The copy bandwidth of this session (the floor's denominator), as in gpu_run.sh's peers.
        say "peers: copy"
        python3 bench/peers.py --workload copy --json "$OUT/copy.json" 2>&1 | tail -3 | tee -a "$log"
        ;;
    tests)
        say "tests: the new strategies' CUDA variants against float64 at the test sizes"
        "$TESTS" --gtest_filter='*line_buffer*cuda*:*two_convs*cuda*:*shared_weights_*cuda*' \
            2>&1 | tee "$OUT/tests.log" | grep -E "^\[  (PASSED|FAILED) |Failure" | head -20 |
            tee -a "$log"
        ;;
    esac
done
say "done"
