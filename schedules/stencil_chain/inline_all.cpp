// inline_all: every stage inlined into out. CUDA: 1 kernel, no intermediate, but the recompute
// grows as 4^K terms per output before common subexpressions are found: the over-fusion case.
// Built for K = 2 and 4 only: at K = 8 the inlined expression has 65536 terms.
// Measured 2026-12-01 (results/runs/2026-12-01-h200-s8, -cpu-s8): H200: k2 8192x8192 253.3 us, k4
// 8192x8192 413.7 us; 2-core EPYC (Zen 5): k2 4096x4096 3424.3 us, k4 4096x4096 10.2 ms.
// summary: every stage inlined: one kernel, recompute growing as 4^K
// pipelines: stencil_chain_k2 stencil_chain_k4
#include "image_common.h"
#include "stencil_chain.h"

namespace fuselab {

FUSELAB_SCHEDULE(StencilChain, inline_all) {
    // CPU: K = 2 is load-bound (8 lanes, image::stencil_lanes); at K = 4 the recompute makes it
    // compute-bound, where 32 lanes are 12% faster.
    const int stages = static_cast<int>(g.s.size()) - 1;
    image::own_loop(g.out, g.x, g.y, target,
                    stages >= 4 ? 2 * target.natural_vector_size<float>() : 0);
}

}  // namespace fuselab
