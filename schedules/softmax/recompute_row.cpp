// recompute_row (CPU): block_row's loops (rows in parallel tasks, each row's max and sum at the
// row, vectorized, rows_common.h's cpu_stat) with the exponential computed twice, in the sum's
// loop and in the output's, and no row of scratch. Each element costs a second exponential (12
// vector operations, math.h), and the row's scratch is neither written nor read: where the row
// comes from memory, the output's stores then have the exponential's arithmetic around them,
// where block_row's come in a pass of their own (ONNX Runtime's form, the exponentials stored to
// the output and scaled in place, is not expressible in Halide 21: README, thirty-fourth
// session). So it wins where the call is bound by memory and loses where the row is in cache.
// Alternated A/B against block_row (the same loops, ex computed at the row), float32, the
// 2-core AMD EPYC (results/runs/2026-12-05-cpu-s35: ab_recompute_raw2.txt, six rounds, 2^22
// elements from memory): N = 1024 to 65536 1.13 to 1.18x block_row's speed on two threads, 1.14
// to 1.24x on one, N = 256 0.99 to 1.01x; within L2 (ab_recompute_l2_raw.txt, one thread):
// 1.26x at N = 64, 0.83 to 0.90x at 256 and 1024, and in 16-bit 0.67 to 0.87x there.
// targets: cpu
// summary: CPU: block_row without scratch, the exponential in the sum and again in the output
#include "rows_common.h"
#include "softmax.h"

namespace fuselab {

FUSELAB_SCHEDULE(Softmax, recompute_row) {
    using namespace Halide;
    const Expr n = g.x.dim(0).extent();
    const LoopLevel row = rows::cpu_rows(g.out, g.i, g.row, n, g.x.dim(1).extent(), target);
    rows::cpu_stat(g.mx, g.r.x, row, target, n, true);
    rows::cpu_stat(g.sum, g.r.x, row, target, n, true);
    g.out.unroll(g.i, 4, TailStrategy::GuardWithIf);
    rows::cpu_rows_specialize(g.out, n, target);
}

}  // namespace fuselab
