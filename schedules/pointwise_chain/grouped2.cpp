// grouped2: operators fused in pairs (s2, s4, s6, s8 and out at root). CUDA: 5 kernels,
// 4 intermediates of N floats: 10 x 4N bytes.
// Measured 2026-12-01 (results/runs/2026-12-01-h200-s8, -cpu-s8): H200: 268435456 2512.0 us, 65536
// 13.8 us; 2-core EPYC (Zen 5): 16777216 80.8 ms, 65536 25.3 us.
// summary: operators fused in pairs: five kernels, four intermediates
#include "pointwise_chain_common.h"

namespace fuselab {

FUSELAB_SCHEDULE(PointwiseChain, grouped2) {
    pointwise_chain::roots_at(g, target, {2, 4, 6, 8});
}

}  // namespace fuselab
