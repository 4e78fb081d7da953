// line_buffer_v8: `line_buffer` with strips 8 columns wide (32 threads a block, so a block still
// covers 256 columns): the K halo columns are shared by 8 outputs instead of 4, so fewer stage
// values a row (K = 4: 13 + 12 + 11 + 8 against 7 + 6 + 5 + 4, for twice the outputs) and fewer
// loads. Built for K = 2 and 4: at K = 8 the stages' rows need more than 128 registers (ptxas
// spills 92 bytes). 1 kernel, no intermediate. ptxas (sm_90, 128 cap), default-size kernel:
// K = 2: 92 registers, K = 4: 128, no spills.
// Measured 2026-12-01 (results/runs/2026-12-01-h200-s8, -cpu-s8): H200: k2 8192x8192 490.4 us, k4
// 8192x8192 546.3 us; 2-core EPYC (Zen 5): k2 4096x4096 8330.2 us, k4 4096x4096 11.2 ms.
// summary: register line buffer, 8 x 32 outputs a thread
// pipelines: stencil_chain_k2 stencil_chain_k4
#include "image_common.h"
#include "stencil_chain.h"

namespace fuselab {

FUSELAB_SCHEDULE(StencilChain, line_buffer_v8) {
    const int K = static_cast<int>(g.s.size()) - 1;
    image::register_line_buffer(g.out, g.x, g.y, g.in, {g.s.begin() + 1, g.s.end() - 1}, K, target,
                                {/*cols=*/8, /*rows=*/32, /*threads=*/32});
}

}  // namespace fuselab
