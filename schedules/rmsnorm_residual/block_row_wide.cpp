// block_row_wide: block_row's one kernel with 512 threads a row (16 bytes of x and of residual a
// thread a step), so that only one or two rows are resident an SM: 132 to 264 rows of 2 x 128 KB (N
// = 65536 bfloat16) is 34 to 68 MB, near the H200's 60 MB L2, where block_row's 4 blocks an SM (135
// MB) would not fit; the sum's pass and the h/out pass re-read x and residual from L2. No
// intermediate in global memory; 2.2 KB of shared memory a block; 62 to 72 registers (122 in the
// branch for unaligned rows). Bets on N = 16384 to 65536.
// targets: cuda
// 16-bit types load and store 16 bytes at a time since 2026-12-02 (fuselab/wide_accesses.h;
// correct on the H200 then, results/runs/2026-12-02-h200-s12/rows).
// Where it wins (the committed tables; per-N figures there, not here): on the H200 it is fuselab's
// best at none of rmsnorm_residual's 18 row cells (results/h200.md, s38's records). It has no CPU
// form (targets: cuda), so none of results/cpu.md's cells.
// Since s21 (2026-12-03), at 2^26 elements a call, chunked_row (h written in its first kernel)
// takes float32 from N = 65536 (2.97 against 2.68 to 2.70 TB/s) and the 16-bit types from 131072
// (bfloat16 2.60 to 2.62 against 2.56 to 2.58; results/runs/2026-12-03-h200-s21/a, one call).
// It still wins where the rows are few (16 rows of N = 16384 or 65536: one wave of blocks).
// summary: one kernel, one row a block of 512 threads (few rows resident: the re-read hits L2)
#include "rmsnorm_residual.h"
#include "rows_common.h"

namespace fuselab {

FUSELAB_SCHEDULE(RmsnormResidual, block_row_wide) {
    using namespace Halide;
    const int T = 512, V = rows::vec_elems(g.x.type());
    const LoopLevel block = rows::gpu_block_rows(g.out, g.i, g.row, T, V);
    rows::gpu_block_rows_with(g.h, g.out, g.i, g.row, T, V);
    rows::gpu_block_stat(g.sumsq, g.r.x, block, g.row, T, V);
    rows::align_buffers(g.x, g.residual, g.w, g.out, g.h);
    fuselab::wide_accesses(g, target);
    g.out.specialize(rows::aligned_rows(V, g.x, g.residual, g.out, g.h));
}

}  // namespace fuselab
