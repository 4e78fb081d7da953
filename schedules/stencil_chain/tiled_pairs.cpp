// tiled_pairs: stages fused in pairs: every even stage at root, each odd stage computed per tile
// of the even stage after it. CUDA: K/2 kernels, K/2-1 intermediates, a 1-pixel halo per tile.
// Measured 2026-12-01 (results/runs/2026-12-01-h200-s8, -cpu-s8): H200: k2 8192x8192 377.3 us, k4
// 8192x8192 744.7 us, k8 8192x8192 1611.0 us; 2-core EPYC (Zen 5): k2 4096x4096 5294.0 us, k4
// 4096x4096 27.7 ms, k8 4096x4096 72.3 ms.
// summary: stages fused in pairs: K/2 kernels, small halos
#include "image_common.h"
#include "stencil_chain.h"

namespace fuselab {

FUSELAB_SCHEDULE(StencilChain, tiled_pairs) {
    const bool gpu = target.has_gpu_feature();
    const size_t K = g.s.size() - 1;
    for (size_t i = 2; i <= K; i += 2) {
        if (i < K) g.s[i].compute_root();
        Halide::LoopLevel tile =
            image::tiles(i < K ? g.s[i] : g.out, g.x, g.y, target, gpu ? 32 : 256, gpu ? 8 : 32);
        image::in_tile(g.s[i - 1], tile, g.x, g.y, target);
    }
    if (K % 2 == 1) {  // an odd K leaves the last stage in its own loop nest
        if (K > 1) g.s[K - 1].compute_root();
        image::own_loop(g.out, g.x, g.y, target);
    }
}

}  // namespace fuselab
