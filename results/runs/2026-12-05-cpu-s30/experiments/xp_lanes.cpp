// EXPERIMENT (s30, not built): the first lane form (every N in lanes, no specialization), which
// became lane_rows (schedules/*/lane_rows.cpp: lanes only where N <= 48).
// summary: experiment
// targets: cpu
#include "rows_common.h"
#include "softmax.h"

namespace fuselab {

FUSELAB_SCHEDULE(Softmax, xp_lanes) {
    using namespace Halide;
    const Expr n = g.x.dim(0).extent();
    const int L = rows::cpu_lanes(target);
    LoopLevel task;
    rows::cpu_rows(g.out, g.i, g.row, n, target, &task);
    Var ro{"sro"}, rl{"srl"};
    for (Func s : {g.mx, g.sum}) {
        s.compute_at(task).vectorize(g.row, L, TailStrategy::GuardWithIf);
        s.update()
            .split(g.row, ro, rl, L, TailStrategy::GuardWithIf)
            .reorder(rl, g.r.x, ro)
            .vectorize(rl);
    }
    g.ex.compute_at(task).vectorize(g.i, L, TailStrategy::GuardWithIf);
}

}  // namespace fuselab
