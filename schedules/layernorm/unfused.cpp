// unfused: every stage at root, as eager PyTorch runs a decomposed LayerNorm: the row sum (one
// kernel, a block a row), x - mean (a kernel writing an N x M float32 intermediate), its sum of
// squares (a kernel reading it back) and the output (a kernel reading it again). CUDA: 4 kernels a
// call; intermediates 4NM bytes (x - mean, written once, read twice) plus 8M bytes; traffic x + 3 x
// 4NM + out against block_row's x + out. Threads as block_row's (256 a block, 16-byte vectors), at
// most 70 registers. CPU: the same four stages, each a parallel loop over rows.
// 16-bit types load and store 16 bytes at a time since 2026-12-02 (fuselab/wide_accesses.h;
// correct on the H200 then, results/runs/2026-12-02-h200-s12/rows); the Measured line below
// predates it, and the change is not timed yet.
// Measured 2026-12-02 (results/runs/2026-12-02-h200-s11, -cpu-s11), at the minimum bytes, 2^26
// elements a call on the H200 and 2^22 on the CPU, by N (*: the fastest strategy there): H200 TB/s:
// float32 256 0.17, 1k 0.56, 4k 1.07, 16k 1.24, 64k 1.18, 256k 1.17; bfloat16 256 0.08, 1k 0.28, 4k
// 0.50, 16k 0.55, 64k 0.53, 256k 0.67; float16 256 0.06, 1k 0.23, 4k 0.48, 16k 0.61, 64k 0.62, 256k
// 0.61; 2-core CPU GB/s: float32 256 13.47, 4k 17.87, 64k 18.34; bfloat16 256 6.83, 4k 10.79, 64k
// 11.63; float16 256 7.27, 4k 11.18, 64k 12.16.
// summary: sum, x - mean, sum of squares, output: 4 kernels, x - mean through global memory
#include "layernorm.h"
#include "rows_common.h"

namespace fuselab {

FUSELAB_SCHEDULE(Layernorm, unfused) {
    using namespace Halide;
    const Expr n = g.x.dim(0).extent(), m = g.x.dim(1).extent();
    if (target.has_gpu_feature()) {
        const int T = 256, V = rows::vec_elems(g.x.type());
        // Each kernel specialized on 16-byte rows, the float32 intermediate's (n % V) too.
        const Expr aligned = rows::aligned_rows(V, g.x, g.out) && n % V == 0;
        rows::gpu_stat_kernel(g.sum, g.r.x, g.row, T, V, aligned);
        rows::gpu_root_2d(g.xc, g.i, g.row, T, 4, aligned);
        rows::gpu_stat_kernel(g.sumsq, g.r.x, g.row, T, 4, aligned);
        rows::gpu_block_rows(g.out, g.i, g.row, T, V);
        g.out.specialize(aligned);
        rows::align_buffers(g.x, g.w, g.b, g.out);
        fuselab::wide_accesses(g, target);
    } else {
        rows::cpu_stat_root(g.sum, g.r.x, g.row, n, m, target);
        rows::cpu_root_2d(g.xc, g.i, g.row, n, m, target);
        rows::cpu_stat_root(g.sumsq, g.r.x, g.row, n, m, target);
        rows::cpu_rows(g.out, g.i, g.row, n, m, target);
    }
}

}  // namespace fuselab
