// unfused: every stage at root, as eager PyTorch runs the residual add and a decomposed RMSNorm: x
// + residual (a kernel writing an N x M intermediate in the storage type), h (a kernel copying it
// to the output h), the row sums of h^2 (a kernel, a block a row, reading it back) and out (a
// kernel reading it again). CUDA: 4 kernels a call; intermediates 2 or 4 NM bytes (written once,
// read three times) plus 4M bytes; traffic 2x + 4 intermediate + h + out streams against
// block_row's 4. Threads as block_row's (256 a block, 16-byte vectors), at most 56 registers. CPU:
// the same four stages, each a parallel loop over rows.
// 16-bit types load and store 16 bytes at a time since 2026-12-02 (fuselab/wide_accesses.h;
// correct on the H200 then, results/runs/2026-12-02-h200-s12/rows).
// Where it wins (the committed tables; per-N figures there, not here): on the H200 it is fuselab's
// best at none of rmsnorm_residual's 18 row cells (results/h200.md, s38's records); on the CPU at
// 3 of 9 (bfloat16 at every N: results/cpu.md).
// summary: x + residual, h, sum of h^2, out: 4 kernels, x + residual through global memory
#include "rmsnorm_residual.h"
#include "rows_common.h"

namespace fuselab {

FUSELAB_SCHEDULE(RmsnormResidual, unfused) {
    using namespace Halide;
    const Expr n = g.x.dim(0).extent(), m = g.x.dim(1).extent();
    if (target.has_gpu_feature()) {
        const int T = 256, V = rows::vec_elems(g.x.type());
        // Each kernel specialized on 16-byte rows (the intermediate hs's too: n % V).
        const Expr aligned = rows::aligned_rows(V, g.x, g.residual, g.out, g.h) && n % V == 0;
        rows::gpu_root_2d(g.hs, g.i, g.row, T, V, aligned);
        rows::gpu_block_rows(g.h, g.i, g.row, T, V);
        g.h.specialize(aligned);
        rows::gpu_stat_kernel(g.sumsq, g.r.x, g.row, T, V, aligned);
        rows::gpu_block_rows(g.out, g.i, g.row, T, V);
        g.out.specialize(aligned);
        rows::align_buffers(g.x, g.residual, g.w, g.out, g.h);
        fuselab::wide_accesses(g, target);
    } else {
        rows::cpu_root_2d(g.hs, g.i, g.row, n, m, target);
        rows::cpu_rows(g.h, g.i, g.row, n, m, target);
        rows::cpu_stat_root(g.sumsq, g.r.x, g.row, n, m, target);
        rows::cpu_rows(g.out, g.i, g.row, n, m, target);
    }
}

}  // namespace fuselab
