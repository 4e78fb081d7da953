// split_row: for long rows (N >= 65536). Rows in waves of 24 MB of x (an outer serial loop over row
// groups), each wave 2 kernels: (1) the sum of h^2 of each 32 KB chunk of a row, a block a chunk
// (the block_row reduction), to global memory; (2) h and out, a block a chunk, each block combining
// its row's few chunk sums, re-reading x and residual from L2. Intermediates: 4 bytes a chunk. DRAM
// traffic x + residual + h + out if the wave's 2 x 24 MB stay in the 60 MB L2 between (1) and (2),
// 2 (x + residual) + h + out if not. 256 threads a block, 1.1 KB of shared memory, at most 92
// registers. Bets on N = 65536 float32 and 262144.
// The bet was lost on the H200 (-s11): never the fastest strategy; float32 at N = 65536 1.82 TB/s
// against block_row_wide's 2.69, at 262144 1.57 against 2.68. Both sizes are 11 waves of 2
// dependent kernels, each grid 768 blocks (under 6 an SM), so a call is a chain of small launches:
// our guess, not yet profiled, is that their gaps and tails cost more than serving the re-reads
// from L2 saves.
// targets: cuda
// Measured 2026-12-02 (results/runs/2026-12-02-h200-s11, -cpu-s11), at the minimum bytes, 2^26
// elements a call on the H200 and 2^22 on the CPU, by N (*: the fastest strategy there): H200 TB/s:
// float32 256 0.17, 1k 0.62, 4k 1.58, 16k 1.88, 64k 1.82, 256k 1.57; bfloat16 256 0.04, 1k 0.15, 4k
// 0.58, 16k 1.71, 64k 1.67, 256k 1.57; float16 256 0.02, 1k 0.06, 4k 0.24, 16k 0.96, 64k 0.95, 256k
// 0.92; CPU: not built.
// summary: several blocks a row, chunk sums through global memory, rows in L2-sized waves
#include "rmsnorm_residual.h"
#include "rows_common.h"

namespace fuselab {

FUSELAB_SCHEDULE(RmsnormResidual, split_row) {
    using namespace Halide;
    const int V = rows::vec_elems(g.x.type()), bytes = g.x.type().bytes();
    const rows::SplitShape sh{32768 / bytes, 256, 24 << 20};
    const Expr n = g.x.dim(0).extent();
    LoopLevel block;
    const LoopLevel wave = rows::gpu_split_rows(g.out, g.i, g.row, n, bytes, sh, V, &block);
    rows::gpu_split_rows_with(g.h, g.out, g.i, g.row, n, bytes, sh, V);
    rows::gpu_split_stat(g.sumsq, g.r.x, wave, g.row, sh, V, &block);
    rows::align_buffers(g.x, g.residual, g.w, g.out, g.h);
    g.out.specialize(rows::aligned_rows(V, g.x, g.residual, g.out, g.h));
}

}  // namespace fuselab
