// grouped5: two groups of five operators (s5 and out at root). CUDA: 2 kernels, 1 intermediate
// of N floats: 4 x 4N bytes.
// Measured 2026-12-01 (results/runs/2026-12-01-h200-s8, -cpu-s8): H200: 268435456 1004.2 us, 65536
// 7.3 us; 2-core EPYC (Zen 5): 16777216 22.1 ms, 65536 21.9 us.
// summary: two groups of five: two kernels, one intermediate
#include "pointwise_chain_common.h"

namespace fuselab {

FUSELAB_SCHEDULE(PointwiseChain, grouped5) {
    pointwise_chain::roots_at(g, target, {5});
}

}  // namespace fuselab
