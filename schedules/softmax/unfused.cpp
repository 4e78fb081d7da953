// unfused: every stage at root, as eager PyTorch runs a decomposed softmax: the max (one kernel, a
// block a row), exp(x - max) (a kernel writing an N x M float32 intermediate), its sum (a kernel
// reading it back), and the output (a kernel reading it again). CUDA: 4 kernels a call;
// intermediates 4NM bytes (ex, written once, read twice) plus 8M bytes (max, sum); traffic x + 3 x
// 4NM + out against block_row's x + out. Threads as block_row's (256 a block, 16-byte vectors), at
// most 48 registers. CPU: the same four stages, each a parallel loop over rows.
// 16-bit types load and store 16 bytes at a time since 2026-12-02 (fuselab/wide_accesses.h;
// correct on the H200 then, results/runs/2026-12-02-h200-s12/rows).
// Where it wins (the committed tables; per-N figures there, not here): on the H200 it is fuselab's
// best at none of softmax's 18 row cells (results/h200.md, s38's records); on the CPU at
// none of its 9 (results/cpu.md).
// summary: max, exp, sum and output each its own kernel, exp(x - max) through global memory
#include "rows_common.h"
#include "softmax.h"

namespace fuselab {

FUSELAB_SCHEDULE(Softmax, unfused) {
    using namespace Halide;
    const Expr n = g.x.dim(0).extent(), m = g.x.dim(1).extent();
    if (target.has_gpu_feature()) {
        const int T = 256, V = rows::vec_elems(g.x.type());
        // Each kernel specialized on 16-byte rows, the float32 intermediate's (n % V) too.
        const Expr aligned = rows::aligned_rows(V, g.x, g.out) && n % V == 0;
        rows::gpu_stat_kernel(g.mx, g.r.x, g.row, T, V, aligned);
        rows::gpu_root_2d(g.ex, g.i, g.row, T, 4, aligned);
        rows::gpu_stat_kernel(g.sum, g.r.x, g.row, T, 4, aligned);
        rows::gpu_block_rows(g.out, g.i, g.row, T, V);
        g.out.specialize(aligned);
        rows::align_buffers(g.x, g.out);
        fuselab::wide_accesses(g, target);
    } else {
        rows::cpu_stat_root(g.mx, g.r.x, g.row, n, m, target);
        rows::cpu_root_2d(g.ex, g.i, g.row, n, m, target);
        rows::cpu_stat_root(g.sum, g.r.x, g.row, n, m, target);
        rows::cpu_rows(g.out, g.i, g.row, n, m, target);
    }
}

}  // namespace fuselab
