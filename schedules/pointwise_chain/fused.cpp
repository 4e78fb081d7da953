// fused: all ten operators inlined into one kernel; every intermediate lives in registers.
// CUDA: 1 kernel, no intermediate, 2 x 4N bytes. No recompute.
// Measured 2026-12-01 (bench/results/2026-12-01-h200-s7, -cpu-s7): H200: 268435456 509.0 us, 65536
// 5.3 us; 2-core EPYC (Zen 5): 16777216 2839.8 us, 65536 21.8 us.
// summary: all ten operators in one kernel
#include "pointwise_chain_common.h"

namespace fuselab {

FUSELAB_SCHEDULE(PointwiseChain, fused) {
    pointwise_chain::roots_at(g, target, {});
}

}  // namespace fuselab
