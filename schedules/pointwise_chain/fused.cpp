// fused: all ten operators inlined into one kernel; every intermediate lives in registers.
// CUDA: 1 kernel, no intermediate, 2 x 4N bytes. No recompute.
// Measured 2026-12-01 (results/runs/2026-12-01-h200-s8, -cpu-s8): H200: 268435456 506.0 us, 65536
// 5.3 us; 2-core EPYC (Zen 5): 16777216 2972.9 us, 65536 20.3 us.
// summary: all ten operators in one kernel
#include "pointwise_chain_common.h"

namespace fuselab {

FUSELAB_SCHEDULE(PointwiseChain, fused) {
    pointwise_chain::roots_at(g, target, {});
}

}  // namespace fuselab
