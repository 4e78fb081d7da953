// grouped5: two groups of five operators (s5 and out at root). CUDA: 2 kernels, 1 intermediate
// of N floats: 4 x 4N bytes.
// Measured 2026-12-01 (bench/results/2026-12-01-h200-s7, -cpu-s7): H200: 268435456 1009.2 us, 65536
// 7.2 us; 2-core EPYC (Zen 5): 16777216 21.8 ms, 65536 22.2 us.
// summary: two groups of five: two kernels, one intermediate
#include "pointwise_chain_common.h"

namespace fuselab {

FUSELAB_SCHEDULE(PointwiseChain, grouped5) {
    pointwise_chain::roots_at(g, target, {5});
}

}  // namespace fuselab
