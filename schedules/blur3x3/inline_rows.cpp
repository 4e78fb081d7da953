// inline_rows: `inline`, with each CUDA thread computing 4 vertically adjacent outputs, so
// that the 6 input rows it needs are loaded once for all 4 (18 loads for 4 outputs instead of
// 36). 1 kernel, no intermediate. CPU: as `inline`.
// Measured 2026-11-30 (bench/results): H200: 8192x8192 197.4 us; 2-core EPYC: 4096x4096 5113.7 us.
// summary: bx inlined, 4 rows a thread: one kernel, loads shared between rows
#include "blur3x3.h"
#include "image_common.h"

namespace fuselab {

FUSELAB_SCHEDULE(Blur3x3, inline_rows) {
    if (!target.has_gpu_feature()) return image::own_loop(g.out, g.x, g.y, target);
    Halide::Var xo{"xo"}, yo{"yo"}, xi{"xi"}, yi{"yi"}, yr{"yr"};
    g.out.split(g.y, g.y, yr, 4, Halide::TailStrategy::GuardWithIf)
        .gpu_tile(g.x, g.y, xo, yo, xi, yi, 64, 4, Halide::TailStrategy::GuardWithIf)
        .reorder(yr, xi, yi, xo, yo)
        .unroll(yr);
}

}  // namespace fuselab
