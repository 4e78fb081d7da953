// line_buffer_vs_r16: `line_buffer_r16` with the last stage s_K in registers too (stored at the
// strip, computed at the row, as the other stages) and each output row stored as one 16-byte
// vector, as blur3x3's line_buffer does: out reads s_K at aligned columns only, which keeps the
// register array out of local memory (`line_buffer_r16` inlines s_K into out, which then reads
// s_K-1 at x and x + 1, so its stores stay 4-byte). 1 kernel, no intermediate. ptxas (sm_90, 128
// cap), the largest of its kernels: K = 2: 122 registers, K = 4: 128 with 16 bytes of spills,
// K = 8: 128.
// Measured 2026-12-01 (results/runs/2026-12-01-h200-s8, -cpu-s8): H200: k2 8192x8192 137.9 us, k4
// 8192x8192 145.2 us, k8 8192x8192 211.9 us; 2-core EPYC (Zen 5): k2 4096x4096 5117.5 us, k4
// 4096x4096 12.2 ms, k8 4096x4096 49.2 ms.
// summary: register line buffer with 16-byte stores, 4 x 16 outputs a thread
#include "image_common.h"
#include "stencil_chain.h"

namespace fuselab {

FUSELAB_SCHEDULE(StencilChain, line_buffer_vs_r16) {
    const int K = static_cast<int>(g.s.size()) - 1;
    image::register_line_buffer(g.out, g.x, g.y, g.in, {g.s.begin() + 1, g.s.end()}, K, target,
                                {/*cols=*/4, /*rows=*/16, /*threads=*/64, /*vector_store=*/true});
}

}  // namespace fuselab
