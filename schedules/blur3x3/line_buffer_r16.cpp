// line_buffer_r16: `line_buffer` with strips of 16 rows: 15.5 waves of blocks instead of 7.75
// (a smaller tail), for 2 halo rows re-read per 16 instead of per 32. 1 kernel, no intermediate.
// ptxas (sm_90, 128 cap), default-size kernel: 124 registers, no spills.
// Measured 2026-12-01 (results/runs/2026-12-01-h200-s8, -cpu-s8): H200: 8192x8192 134.5 us; 2-core
// EPYC (Zen 5): 4096x4096 4609.0 us.
// summary: register line buffer, 4 x 16 outputs a thread
#include "blur3x3.h"
#include "image_common.h"

namespace fuselab {

FUSELAB_SCHEDULE(Blur3x3, line_buffer_r16) {
    image::register_line_buffer(g.out, g.x, g.y, g.in, {g.bx}, 2, target,
                                {/*cols=*/4, /*rows=*/16, /*threads=*/64, /*vector_store=*/true});
}

}  // namespace fuselab
