// EXPERIMENT (s30, not built): block_row's CPU form with the next row of x prefetched at the
// start of each row.
// summary: experiment
// targets: cpu
// dtypes: float32
#include "rows_common.h"
#include "softmax.h"

namespace fuselab {

FUSELAB_SCHEDULE(Softmax, xp_prefetch) {
    using namespace Halide;
    const Expr n = g.x.dim(0).extent(), m = g.x.dim(1).extent();
    const int L = rows::cpu_lanes(target);
    Var rowo{g.row.name() + "_o"}, rowi{g.row.name() + "_i"};
    // ShiftInwards (a task's rows a factor of at most M): no min() on the row, whose let the
    // prefetch's box would not see shifted.
    const Expr rows_per_task = max(1, min(m, 16384 / max(n, 1)));
    g.out.split(g.row, rowo, rowi, rows_per_task, TailStrategy::ShiftInwards)
        .vectorize(g.i, L, TailStrategy::GuardWithIf)
        .parallel(rowo);
    const LoopLevel task(g.out, rowo), row(g.out, rowi);
    rows::cpu_stat(g.mx, g.r.x, row, target, g.x.dim(0).extent(), true);
    rows::cpu_row_stage(g.ex, g.i, row, task, target);
    rows::cpu_stat(g.sum, g.r.x, row, target, g.x.dim(0).extent(), true);
    g.out.unroll(g.i, 4, TailStrategy::GuardWithIf);
    g.ex.unroll(g.i, 2, TailStrategy::GuardWithIf);
    g.out.prefetch(g.x, rowi, rowi, 1, PrefetchBoundStrategy::NonFaulting);
    rows::cpu_rows_specialize(g.out, g.x.dim(0).extent(), target);
}

}  // namespace fuselab
