// fused: all ten operators inlined into one kernel; every intermediate lives in registers.
// CUDA: 1 kernel, no intermediate, 2 x 4N bytes. No recompute.
// Measured 2026-11-30 (bench/results): H200: 268435456 502.8 us, 65536 5.2 us; 2-core EPYC (Zen 5),
// 2026-12-01 (bench/results/2026-12-01-cpu-peers): 16777216 4618.7 us, 65536 30.3 us.
// summary: all ten operators in one kernel
#include "pointwise_chain_common.h"

namespace fuselab {

FUSELAB_SCHEDULE(PointwiseChain, fused) {
    pointwise_chain::roots_at(g, target, {});
}

}  // namespace fuselab
