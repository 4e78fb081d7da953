// unfused: every stage at root, as eager PyTorch runs a decomposed softmax: the max (one kernel, a
// block a row), exp(x - max) (a kernel writing an N x M float32 intermediate), its sum (a kernel
// reading it back), and the output (a kernel reading it again). CUDA: 4 kernels a call;
// intermediates 4NM bytes (ex, written once, read twice) plus 8M bytes (max, sum); traffic x + 3 x
// 4NM + out against block_row's x + out. Threads as block_row's (256 a block, 16-byte vectors), at
// most 48 registers. CPU: the same four stages, each a parallel loop over rows.
// Measured (H200, 2^26 elements, results/runs/2026-12-02-h200-s10/c): float32: N=256 2924 us,
// N=4096 516 us, N=262144 518 us; bfloat16: N=256 3105 us, N=4096 534 us, N=262144 413 us.
// summary: max, exp, sum and output each its own kernel, exp(x - max) through global memory
#include "rows_common.h"
#include "softmax.h"

namespace fuselab {

FUSELAB_SCHEDULE(Softmax, unfused) {
    using namespace Halide;
    const Expr n = g.x.dim(0).extent();
    if (target.has_gpu_feature()) {
        const int T = 256, V = rows::vec_elems(g.x.type());
        rows::gpu_stat_kernel(g.mx, g.r.x, g.row, T, V);
        rows::gpu_root_2d(g.ex, g.i, g.row, T, 4);
        rows::gpu_stat_kernel(g.sum, g.r.x, g.row, T, 4);
        rows::gpu_block_rows(g.out, g.i, g.row, T, V);
        rows::align_buffers(g.x, g.out);
    } else {
        rows::cpu_stat_root(g.mx, g.r.x, g.row, n, target);
        rows::cpu_root_2d(g.ex, g.i, g.row, n, target);
        rows::cpu_stat_root(g.sum, g.r.x, g.row, n, target);
        rows::cpu_rows(g.out, g.i, g.row, n, target);
    }
}

}  // namespace fuselab
