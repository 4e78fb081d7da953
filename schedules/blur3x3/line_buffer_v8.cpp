// line_buffer_v8: `line_buffer` with strips 8 columns wide and 32 threads a block: five 8-byte
// loads an input row for 8 outputs (against three for 4), two 16-byte stores an output row.
// 1 kernel, no intermediate. ptxas (sm_90, 128 cap), default-size kernel: 124 registers, no
// spills.
// Measured 2026-12-01 (results/runs/2026-12-01-h200-s8, -cpu-s8): H200: 8192x8192 182.7 us; 2-core
// EPYC (Zen 5): 4096x4096 7540.0 us.
// summary: register line buffer, 8 x 32 outputs a thread
#include "blur3x3.h"
#include "image_common.h"

namespace fuselab {

FUSELAB_SCHEDULE(Blur3x3, line_buffer_v8) {
    image::register_line_buffer(g.out, g.x, g.y, g.in, {g.bx}, 2, target,
                                {/*cols=*/8, /*rows=*/32, /*threads=*/32, /*vector_store=*/true});
}

}  // namespace fuselab
