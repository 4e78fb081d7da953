// EXPERIMENT (s30, not built): softmax's statistics at the task level, one chain a row along the
// row (cpu_stat), the task's rows one after the other; ab_task_rows.txt.
// summary: experiment
// targets: cpu
#include "rows_common.h"
#include "softmax.h"

namespace fuselab {

FUSELAB_SCHEDULE(Softmax, task_rows) {
    using namespace Halide;
    const Expr n = g.x.dim(0).extent();
    LoopLevel task;
    rows::cpu_rows(g.out, g.i, g.row, n, target, &task);
    rows::cpu_stat(g.mx, g.r.x, task, target, n, false, 1);
    g.ex.compute_at(task).vectorize(g.i, rows::cpu_lanes(target), TailStrategy::GuardWithIf);
    rows::cpu_stat(g.sum, g.r.x, task, target, n, false, 1);
}

}  // namespace fuselab
