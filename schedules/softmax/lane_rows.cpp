// lane_rows (CPU): short rows, many to a task, each statistic a loop over the task's rows. Where N
// <= 48 (rows_common.h: lane_row) the max and the sum run 16 rows at a time (AVX-512), a row a
// vector lane, each lane's chain over the row in order; exp(x - max) in a scratch of the task's
// rows (16K elements, in L2), then the output. The row stays in cache between the passes, as in
// block_row; what differs is the order: block_row's passes over a row shorter than 4 vectors (N <
// 64, where it is not specialized) are each a few masked vectors, and its max and sum end in a fold
// and a shuffle tree, so a row is a chain of dependent steps (max, exp, sum, divide) that no other
// row's work overlaps; here every step is a vector of 16 rows. The lanes' loads are strided (16
// scalar loads and inserts a step: x86 has no strided vector load). Longer rows: block_row's
// statistics (one chain along the row), computed for the task's rows in turn.
// Alternating A/B, 2 threads of the 2-core AMD EPYC, 2^22 float32 elements
// (results/runs/2026-12-05-cpu-s30/ab_lane_rows.txt): at N = 4, 8, 16, 33, 48 it runs 14.0, 12.0,
// 8.3, 3.6 and 2.4x block_row's speed, and 3.2, 3.5, 2.9, 2.7 and 1.7x unfused's (the fastest
// before it there); at 64 and 256 0.81 and 0.72x block_row (its own longer-row form, the task's
// rows one after the other, at 100 1.11x).
// targets: cpu
// summary: CPU short rows: the statistics 16 rows at a time, a row a vector lane
#include "rows_common.h"
#include "softmax.h"

namespace fuselab {

FUSELAB_SCHEDULE(Softmax, lane_rows) {
    using namespace Halide;
    const Expr n = g.x.dim(0).extent();
    LoopLevel task;
    rows::cpu_rows(g.out, g.i, g.row, n, g.x.dim(1).extent(), target, &task);
    rows::cpu_lane_stat(g.mx, g.r.x, g.row, task, target, n);
    g.ex.compute_at(task).vectorize(g.i, rows::cpu_lanes(target), TailStrategy::GuardWithIf);
    rows::cpu_lane_stat(g.sum, g.r.x, g.row, task, target, n);
}

}  // namespace fuselab
