// root: every stage at root. CUDA: K kernels, K-1 intermediates of about W x H floats each.
// Measured 2026-12-01 (results/runs/2026-12-01-h200-s8, -cpu-s8): H200: k2 8192x8192 475.5 us, k4
// 8192x8192 951.0 us, k8 8192x8192 1902.2 us; 2-core EPYC (Zen 5): k2 4096x4096 22.0 ms, k4
// 4096x4096 64.0 ms, k8 4096x4096 146.5 ms.
// summary: every stage at root: K kernels, K-1 intermediates
#include "image_common.h"
#include "stencil_chain.h"

namespace fuselab {

FUSELAB_SCHEDULE(StencilChain, root) {
    for (size_t i = 1; i + 1 < g.s.size(); i++) {
        g.s[i].compute_root();
        image::own_loop(g.s[i], g.x, g.y, target);
    }
    image::own_loop(g.out, g.x, g.y, target);  // s_K inlined into it
}

}  // namespace fuselab
