// unfused: every operator at root, as eager frameworks run it. CUDA: 10 kernels, 9 intermediates
// of N floats, each written once and read once: 20 x 4N bytes against the fused 2 x 4N.
// Measured 2026-12-01 (results/runs/2026-12-01-h200-s8, -cpu-s8): H200: 268435456 5025.6 us, 65536
// 23.7 us; 2-core EPYC (Zen 5): 16777216 182.0 ms, 65536 39.3 us.
// summary: all ten operators at root: ten kernels, nine intermediates
#include "pointwise_chain_common.h"

namespace fuselab {

FUSELAB_SCHEDULE(PointwiseChain, unfused) {
    pointwise_chain::roots_at(g, target, {1, 2, 3, 4, 5, 6, 7, 8, 9});
}

}  // namespace fuselab
