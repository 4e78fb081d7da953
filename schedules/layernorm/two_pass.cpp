// two_pass: kernel 1 computes each row's statistics, the mean and 1/sqrt(var + eps), one row a
// block (the block_row reduction, x read twice: from DRAM, then from L1/L2), and writes them (8
// bytes a row) to global memory; kernel 2 re-reads x from DRAM and normalizes (256 threads a block,
// a row a block, 16-byte vectors). 2 kernels a call; traffic 2x + out plus 16M bytes of statistics;
// 2.1 KB of shared memory in kernel 1, at most 72 registers. CPU: the same two parallel loops, one
// row a task.
// 16-bit types load and store 16 bytes at a time since 2026-12-02 (fuselab/wide_accesses.h;
// correct on the H200 then, results/runs/2026-12-02-h200-s12/rows).
// Where it wins (the committed tables; per-N figures there, not here): on the H200 it is fuselab's
// best at none of layernorm's 18 row cells (results/h200.md, s38's records); on the CPU at
// 1 of 9 (bfloat16 N = 65536: results/cpu.md).
// summary: row statistics (mean, 1/std) in one kernel, then a kernel that re-reads x
#include "layernorm.h"
#include "rows_common.h"

namespace fuselab {

FUSELAB_SCHEDULE(Layernorm, two_pass) {
    using namespace Halide;
    const Expr n = g.x.dim(0).extent();
    // The output reads the mean through its own copy (meanw), computed with rstd by kernel 1.
    Func meanw = g.mean.in(g.xc.clone_in(g.out));
    if (target.has_gpu_feature()) {
        const int T = 256, V = rows::vec_elems(g.x.type());
        const LoopLevel stats = rows::gpu_row_kernel(g.rstd, g.row);
        meanw.compute_root().gpu_blocks(g.row).compute_with(g.rstd, g.row);
        rows::gpu_block_stat(g.sum, g.r.x, stats, g.row, T, V);
        rows::gpu_block_stat(g.sumsq, g.r.x, stats, g.row, T, V);
        rows::gpu_block_rows(g.out, g.i, g.row, T, V);
        rows::align_buffers(g.x, g.w, g.b, g.out);
        fuselab::wide_accesses(g, target);
        g.out.specialize(rows::aligned_rows(V, g.x, g.out));
    } else {
        // One row a task: compute_with over split rows made the statistics' bounds span the rest
        // of the task's rows (recomputed for each row).
        g.rstd.compute_root().parallel(g.row);
        meanw.compute_root().parallel(g.row).compute_with(g.rstd, g.row);
        const LoopLevel row(g.rstd, g.row);
        rows::cpu_stat(g.sum, g.r.x, row, target, n);
        rows::cpu_stat(g.sumsq, g.r.x, row, target, n);
        rows::cpu_rows(g.out, g.i, g.row, n, g.x.dim(1).extent(), target);
    }
}

}  // namespace fuselab
