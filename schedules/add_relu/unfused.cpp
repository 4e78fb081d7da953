// unfused: the seed's two kernels. `sum` is computed at root into an N-float intermediate that
// relu reads back. CUDA: 2 kernels, 4N bytes intermediate written once and read once
// (5 x 4N bytes of traffic against the fused 3 x 4N). CPU: two parallel loops.
// Measured 2026-12-01 (results/runs/2026-12-01-h200-s8, -cpu-s8): H200: 268435456 1241.9 us, 4096
// 6.6 us; 2-core EPYC (Zen 5): 16777216 22.8 ms, 4096 0.9 us.
// summary: sum at root, then relu: the seed's two-kernel form
#include "add_relu.h"
#include "common.h"

namespace fuselab {

FUSELAB_SCHEDULE(AddRelu, unfused) {
    g.sum.compute_root();
    pointwise_1d(g.sum, g.i, target);
    pointwise_1d(g.out, g.i, target);
}

}  // namespace fuselab
