// unfused: every stage at root, as eager PyTorch runs a decomposed softmax: the max (one kernel, a
// block a row), exp(x - max) (a kernel writing an N x M float32 intermediate), its sum (a kernel
// reading it back), and the output (a kernel reading it again). CUDA: 4 kernels a call;
// intermediates 4NM bytes (ex, written once, read twice) plus 8M bytes (max, sum); traffic x + 3 x
// 4NM + out against block_row's x + out. Threads as block_row's (256 a block, 16-byte vectors), at
// most 48 registers. CPU: the same four stages, each a parallel loop over rows.
// 16-bit types load and store 16 bytes at a time since 2026-12-02 (fuselab/wide_accesses.h;
// correct on the H200 then, results/runs/2026-12-02-h200-s12/rows); the Measured line below
// predates it, and the change is not timed yet.
// Measured 2026-12-02 (results/runs/2026-12-02-h200-s11, -cpu-s11), at the minimum bytes, 2^26
// elements a call on the H200 and 2^22 on the CPU, by N (*: the fastest strategy there): H200 TB/s:
// float32 256 0.18, 1k 0.58, 4k 1.04, 16k 1.15, 64k 1.11, 256k 1.04; bfloat16 256 0.09, 1k 0.29, 4k
// 0.50, 16k 0.57, 64k 0.56, 256k 0.65; float16 256 0.08, 1k 0.28, 4k 0.53, 16k 0.65, 64k 0.58, 256k
// 0.64; 2-core CPU GB/s: float32 256 12.60, 4k 16.28, 64k 17.58; bfloat16 256 7.46, 4k 9.71, 64k
// 10.51; float16 256 7.26, 4k 9.97, 64k 10.52.
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
