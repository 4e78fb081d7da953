// inline: bx inlined into out. CUDA: 1 kernel, no intermediate; each bx value is recomputed for
// the 3 rows that use it (9 loads per output, served mostly by the caches).
// Measured 2026-12-01 (results/runs/2026-12-01-h200-s8, -cpu-s8): H200: 8192x8192 252.4 us; 2-core
// EPYC (Zen 5): 4096x4096 3271.7 us.
// summary: horizontal pass inlined: one kernel, bx recomputed three times
#include "blur3x3.h"
#include "image_common.h"

namespace fuselab {

FUSELAB_SCHEDULE(Blur3x3, inline) {
    image::own_loop(g.out, g.x, g.y, target);
}

}  // namespace fuselab
