// root: every stage at root. CUDA: K kernels, K-1 intermediates of about W x H floats each.
// Measured 2026-11-30 (bench/results): H200: k2 8192x8192 476.0 us, k4 8192x8192 951.8 us, k8
// 8192x8192 1903.5 us; 2-core EPYC (Zen 5), 2026-12-01 (bench/results/2026-12-01-cpu-peers): k2
// 4096x4096 25.1 ms, k4 4096x4096 64.2 ms, k8 4096x4096 218.4 ms.
// summary: every stage at root: K kernels, K-1 intermediates
#include "image_common.h"
#include "stencil_chain.h"

namespace fuselab {

FUSELAB_SCHEDULE(StencilChain, root) {
    for (size_t i = 1; i < g.s.size(); i++) {
        if (i + 1 < g.s.size()) g.s[i].compute_root();
        image::own_loop(g.s[i], g.x, g.y, target);
    }
}

}  // namespace fuselab
