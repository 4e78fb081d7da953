#include "rmsnorm_residual.h"
#include "rows_common.h"

namespace fuselab {

FUSELAB_SCHEDULE(RmsnormResidual, xp_old_lane_rows) {
    using namespace Halide;
    const Expr n = g.x.dim(0).extent(), m = g.x.dim(1).extent();
    LoopLevel task;
    rows::cpu_rows(g.out, g.i, g.row, n, m, target, &task);
    {  // s44 A/B: the old cpu_rows_with (h fused with out at the row only)
        Var rowo{g.row.name() + "_o"}, rowi{g.row.name() + "_i"};
        g.h.split(g.row, rowo, rowi, rows::cpu_rows_per_task(n, m), TailStrategy::GuardWithIf)
            .vectorize(g.i, rows::cpu_lanes(target), TailStrategy::GuardWithIf)
            .parallel(rowo)
            .compute_with(g.out, rowi);
    }
    rows::cpu_lane_stat(g.sumsq, g.r.x, g.row, task, target, n);
}

}  // namespace fuselab
