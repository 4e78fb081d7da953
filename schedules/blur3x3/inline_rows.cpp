// inline_rows: `inline`, with each CUDA thread computing a 2-wide strip of 32 rows, so that the
// 34 input rows it needs are loaded once for all 32 output rows (136 loads for 64 outputs
// instead of 576), and blocks of 64x1 threads, so that each block reads whole 130-float row
// segments. 1 kernel, no intermediate. Strips of 32 rows beat 16, 24 and 64 (and 128-thread
// blocks) by 1-7% on the H200 (results/runs/2026-11-30-h200-s5-tuning). CPU: as `inline`.
// Measured 2026-12-01 (results/runs/2026-12-01-h200-s8, -cpu-s8): H200: 8192x8192 143.9 us; 2-core
// EPYC (Zen 5): 4096x4096 3239.9 us.
// summary: bx inlined, 2x32 outputs a thread: one kernel, loads shared between rows
#include "blur3x3.h"
#include "image_common.h"

namespace fuselab {

FUSELAB_SCHEDULE(Blur3x3, inline_rows) {
    if (!target.has_gpu_feature()) return image::own_loop(g.out, g.x, g.y, target);
    using Halide::TailStrategy;
    Halide::Var xo{"xo"}, yo{"yo"}, xi{"xi"}, yi{"yi"}, xc{"xc"}, yr{"yr"};
    g.out.split(g.y, g.y, yr, 32, TailStrategy::GuardWithIf)
        .split(g.x, g.x, xc, 2, TailStrategy::GuardWithIf)
        .gpu_tile(g.x, g.y, xo, yo, xi, yi, 64, 1, TailStrategy::GuardWithIf)
        .reorder(xc, yr, xi, yi, xo, yo)
        .unroll(xc)
        .unroll(yr);
}

}  // namespace fuselab
