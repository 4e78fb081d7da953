// tiled: bx computed per 32x8 output tile, into shared memory on CUDA (a 32 x 10 tile: rows
// recomputed at tile edges, 25%), then the vertical pass reads it there. 1 kernel, no global
// intermediate. CPU: 256 x 32 tiles, bx in a cache-resident scratch buffer.
// Measured 2026-12-01 (results/runs/2026-12-01-h200-s8, -cpu-s8): H200: 8192x8192 330.4 us; 2-core
// EPYC (Zen 5): 4096x4096 4555.3 us.
// summary: bx per output tile in shared memory: one kernel, small halo recompute
#include "blur3x3.h"
#include "image_common.h"

namespace fuselab {

FUSELAB_SCHEDULE(Blur3x3, tiled) {
    const bool gpu = target.has_gpu_feature();
    Halide::LoopLevel tile = image::tiles(g.out, g.x, g.y, target, gpu ? 32 : 256, gpu ? 8 : 32);
    image::in_tile(g.bx, tile, g.x, g.y, target);
}

}  // namespace fuselab
