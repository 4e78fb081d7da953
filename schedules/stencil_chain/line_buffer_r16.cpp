// line_buffer_r16: `line_buffer` with strips of 16 rows: twice the blocks (8 against 4 waves of
// 16-warp SMs at 8192: less of a tail), for K more halo rows per 16 instead of per 32 (K = 8: 50%
// extra input rows read, from L2, and stage rows recomputed). 1 kernel, no intermediate.
// ptxas (sm_90, 128 cap), default-size kernel: K = 2: 92 registers, K = 4: 96, K = 8: 117, no
// spills.
// Measured 2026-12-01 (results/runs/2026-12-01-h200-s8, -cpu-s8): H200: k2 8192x8192 184.2 us, k4
// 8192x8192 161.9 us, k8 8192x8192 220.1 us; 2-core EPYC (Zen 5): k2 4096x4096 5194.4 us, k4
// 4096x4096 12.0 ms, k8 4096x4096 44.8 ms.
// summary: register line buffer, 4 x 16 outputs a thread
#include "image_common.h"
#include "stencil_chain.h"

namespace fuselab {

FUSELAB_SCHEDULE(StencilChain, line_buffer_r16) {
    const int K = static_cast<int>(g.s.size()) - 1;
    image::register_line_buffer(g.out, g.x, g.y, g.in, {g.s.begin() + 1, g.s.end() - 1}, K, target,
                                {/*cols=*/4, /*rows=*/16, /*threads=*/64});
}

}  // namespace fuselab
