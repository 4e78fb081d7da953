// lane_rows (CPU): short rows, many to a task, each statistic a loop over the task's rows. Where N
// <= 48 (rows_common.h: lane_row) the sum and the sum of squares run 16 rows at a time (AVX-512), a
// row a vector lane, each lane's chain over the row in order (strided loads: 16 scalar loads and
// inserts a step); then the output along each row. block_row's passes over a row shorter than 4
// vectors (N < 64, where it is not specialized) are each a few masked vectors ending in a shuffle
// tree, a chain of dependent steps a row; here every step is a vector of 16 rows. Longer rows:
// block_row's statistics, computed for the task's rows in turn.
// Alternating A/B, 2 threads of the 2-core AMD EPYC, 2^22 float32 elements
// (results/runs/2026-12-05-cpu-s30/ab_lane_rows.txt): at N = 4, 8, 16, 33, 48 it runs 13.5, 12.9,
// 9.8, 4.1 and 2.6x block_row's speed, and 4.2, 5.1, 3.6, 3.5 and 1.3x unfused's; the longer-row
// form 1.15 and 1.49x block_row at 64 and 100, 0.84x at 256.
// targets: cpu
// summary: CPU short rows: the statistics 16 rows at a time, a row a vector lane
#include "layernorm.h"
#include "rows_common.h"

namespace fuselab {

FUSELAB_SCHEDULE(Layernorm, lane_rows) {
    using namespace Halide;
    const Expr n = g.x.dim(0).extent();
    LoopLevel task;
    rows::cpu_rows(g.out, g.i, g.row, n, g.x.dim(1).extent(), target, &task);
    rows::cpu_lane_stat(g.sum, g.r.x, g.row, task, target, n);
    rows::cpu_lane_stat(g.sumsq, g.r.x, g.row, task, target, n);
}

}  // namespace fuselab
