// line_buffer: bx line-buffered in registers (image::register_line_buffer): each CUDA thread walks
// a strip of 4 columns x 32 rows down y keeping the last three bx rows (4 floats each), so each bx
// value is computed once and each input row (6 floats) is loaded once per strip, as three 8-byte
// vectors (the 8194-float rows are 8-byte aligned only), and each output row is one 16-byte
// store. 64 threads a block. 1 kernel, no intermediate; the halo: 2 input rows re-read per 32
// (from L2) and 2 columns per 4 (from L1). Against inline_rows (2 x 32 a thread, 136 scalar loads
// and 64 scalar stores for 64 outputs): 102 loads and 32 stores for 128 outputs. ptxas (sm_90,
// 128 cap), default-size kernel: 128 registers (the unrolled strip's loads issued early), no
// spills; 8.1 SASS instructions an output. CPU: the same strips, serial inside parallel bands.
// Measured 2026-12-01 (results/runs/2026-12-01-h200-s8, -cpu-s8): H200: 8192x8192 139.6 us; 2-core
// EPYC (Zen 5): 4096x4096 10.5 ms.
// summary: register line buffer: one kernel, 4 x 32 outputs a thread, bx rows in registers
#include "blur3x3.h"
#include "image_common.h"

namespace fuselab {

FUSELAB_SCHEDULE(Blur3x3, line_buffer) {
    image::register_line_buffer(g.out, g.x, g.y, g.in, {g.bx}, 2, target,
                                {/*cols=*/4, /*rows=*/32, /*threads=*/64, /*vector_store=*/true});
}

}  // namespace fuselab
