// EXPERIMENT (s30, not built): layernorm's statistics at the task level, one chain a row along
// the row (cpu_stat), the task's rows one after the other; ab_task_rows.txt.
// summary: experiment
// targets: cpu
#include "layernorm.h"
#include "rows_common.h"

namespace fuselab {

FUSELAB_SCHEDULE(Layernorm, task_rows) {
    using namespace Halide;
    const Expr n = g.x.dim(0).extent();
    LoopLevel task;
    rows::cpu_rows(g.out, g.i, g.row, n, target, &task);
    rows::cpu_stat(g.sum, g.r.x, task, target, n, false, 1);
    rows::cpu_stat(g.sumsq, g.r.x, task, target, n, false, 1);
}

}  // namespace fuselab
