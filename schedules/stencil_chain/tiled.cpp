// tiled: all K-1 intermediate stages computed per output tile (32x16 on CUDA, in shared memory;
// 256x32 on the CPU). 1 kernel, no global intermediate; stage i recomputes a halo of K-i rows
// and columns around the tile (at K = 8: 40x24 for a 32x16 tile at stage 1).
// Measured 2026-12-01 (results/runs/2026-12-01-h200-s8, -cpu-s8): H200: k2 8192x8192 374.2 us, k4
// 8192x8192 470.2 us, k8 8192x8192 994.5 us; 2-core EPYC (Zen 5): k2 4096x4096 5209.6 us, k4
// 4096x4096 7391.4 us, k8 4096x4096 11.4 ms.
// summary: every stage per output tile in shared memory: one kernel, halo recompute
#include "image_common.h"
#include "stencil_chain.h"

namespace fuselab {

FUSELAB_SCHEDULE(StencilChain, tiled) {
    const bool gpu = target.has_gpu_feature();
    Halide::LoopLevel tile = image::tiles(g.out, g.x, g.y, target, gpu ? 32 : 256, gpu ? 16 : 32);
    for (size_t i = 1; i + 1 < g.s.size(); i++) image::in_tile(g.s[i], tile, g.x, g.y, target);
}

}  // namespace fuselab
