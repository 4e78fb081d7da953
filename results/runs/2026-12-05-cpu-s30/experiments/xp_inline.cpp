// EXPERIMENT (s30, not built): block_row's CPU form with exp(x - max) recomputed by the sum and
// the output instead of staged in a scratch row.
// summary: experiment
// targets: cpu
// dtypes: float32
#include "rows_common.h"
#include "softmax.h"

namespace fuselab {

FUSELAB_SCHEDULE(Softmax, xp_inline) {
    using namespace Halide;
    LoopLevel task;
    const LoopLevel row = rows::cpu_rows(g.out, g.i, g.row, g.x.dim(0).extent(), target, &task);
    rows::cpu_stat(g.mx, g.r.x, row, target, g.x.dim(0).extent(), true);
    rows::cpu_stat(g.sum, g.r.x, row, target, g.x.dim(0).extent(), true);
    g.out.unroll(g.i, 2, TailStrategy::GuardWithIf);
    rows::cpu_rows_specialize(g.out, g.x.dim(0).extent(), target);
}

}  // namespace fuselab
