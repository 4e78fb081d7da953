// lane_rows (CPU): short rows, many to a task, the statistic a loop over the task's rows. Where N
// <= 48 (rows_common.h: lane_row) the sum of h^2 runs 16 rows at a time (AVX-512), a row a vector
// lane, each lane's chain over the row in order (strided loads: 16 scalar loads and inserts a step,
// of x and of residual); then h and out together along each row (compute_with). block_row's pass
// over a row shorter than 4 vectors (N < 64) is a few masked vectors ending in a shuffle tree, a
// chain of dependent steps a row; here every step is a vector of 16 rows. Longer rows: block_row's
// statistic, computed for the task's rows in turn.
// Alternating A/B, 2 threads of the 2-core AMD EPYC, 2^22 float32 elements
// (results/runs/2026-12-05-cpu-s30/ab_lane_rows.txt): at N = 4, 8, 16, 33 it runs 5.6, 5.5, 3.7
// and 1.7x block_row's speed and 1.2 to 2.4x the fastest other strategy (unfused or two_pass);
// at 48 0.62x two_pass's (two loads a lane a step, x and residual); the longer-row form 1.26x
// block_row at 64, 0.85x at 256.
// targets: cpu
// summary: CPU short rows: the statistic 16 rows at a time, a row a vector lane
#include "rmsnorm_residual.h"
#include "rows_common.h"

namespace fuselab {

FUSELAB_SCHEDULE(RmsnormResidual, lane_rows) {
    using namespace Halide;
    const Expr n = g.x.dim(0).extent(), m = g.x.dim(1).extent();
    LoopLevel task;
    rows::cpu_rows(g.out, g.i, g.row, n, m, target, &task);
    rows::cpu_rows_with(g.h, g.out, g.i, g.row, n, m, target);
    rows::cpu_lane_stat(g.sumsq, g.r.x, g.row, task, target, n);
}

}  // namespace fuselab
