// two_pass: kernel 1 computes each row's statistic, 1/sqrt(mean(h^2) + eps), one row a block (the
// block_row reduction over h = x + residual, read from DRAM) and writes it (4 bytes a row) to
// global memory; kernel 2 re-reads x and residual from DRAM and writes h and out together
// (compute_with), 256 threads a block, a row a block. 2 kernels a call; traffic 2 (x + residual) +
// h + out plus 4M bytes. Kernel 1 does not write h: kernel 2 would re-read x and residual anyway
// (out reads x + residual rounded, not the h buffer), and h written by kernel 1 would cost a third
// stream (7 row streams against 6). 1.1 KB of shared memory in kernel 1; 59 to 72 registers (124 in
// the branch for unaligned float32 rows). CPU: the same two parallel loops over rows.
// 16-bit types load and store 16 bytes at a time since 2026-12-02 (fuselab/wide_accesses.h;
// correct on the H200 then, results/runs/2026-12-02-h200-s12/rows).
// Where it wins (the committed tables; per-N figures there, not here): on the H200 it is fuselab's
// best at none of rmsnorm_residual's 18 row cells (results/h200.md, s38's records); on the CPU at
// none of its 9 (results/cpu.md).
// summary: row statistic in one kernel, then one re-reading x and residual, writing h and out
#include "rmsnorm_residual.h"
#include "rows_common.h"

namespace fuselab {

FUSELAB_SCHEDULE(RmsnormResidual, two_pass) {
    using namespace Halide;
    const Expr n = g.x.dim(0).extent(), m = g.x.dim(1).extent();
    if (target.has_gpu_feature()) {
        const int T = 256, V = rows::vec_elems(g.x.type());
        const LoopLevel stats = rows::gpu_row_kernel(g.rstd, g.row);
        rows::gpu_block_stat(g.sumsq, g.r.x, stats, g.row, T, V);
        rows::gpu_block_rows(g.out, g.i, g.row, T, V);
        rows::gpu_block_rows_with(g.h, g.out, g.i, g.row, T, V);
        rows::align_buffers(g.x, g.residual, g.w, g.out, g.h);
        fuselab::wide_accesses(g, target);
        g.out.specialize(rows::aligned_rows(V, g.x, g.residual, g.out, g.h));
    } else {
        Var ro{"row_o"}, ri{"row_i"};
        g.rstd.compute_root()
            .split(g.row, ro, ri, rows::cpu_rows_per_task(n, m), TailStrategy::GuardWithIf)
            .parallel(ro);
        rows::cpu_stat(g.sumsq, g.r.x, LoopLevel(g.rstd, ri), target, n, false, 1);
        rows::cpu_rows(g.out, g.i, g.row, n, m, target);
        rows::cpu_rows_with(g.h, g.out, g.i, g.row, n, m, target);
    }
}

}  // namespace fuselab
