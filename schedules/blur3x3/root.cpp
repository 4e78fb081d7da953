// root: bx at root, then out. CUDA: 2 kernels, 1 intermediate of about W x (H+2) floats: the
// image makes two round trips through memory.
// Measured 2026-12-01 (results/runs/2026-12-01-h200-s8, -cpu-s8): H200: 8192x8192 457.8 us; 2-core
// EPYC (Zen 5): 4096x4096 20.8 ms.
// summary: horizontal pass at root, then vertical: two kernels, one intermediate
#include "blur3x3.h"
#include "image_common.h"

namespace fuselab {

FUSELAB_SCHEDULE(Blur3x3, root) {
    g.bx.compute_root();
    image::own_loop(g.bx, g.x, g.y, target);
    image::own_loop(g.out, g.x, g.y, target);
}

}  // namespace fuselab
