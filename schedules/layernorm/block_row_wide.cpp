// block_row_wide: block_row's one kernel with 512 threads a row (16 bytes a thread a step), so that
// only one or two rows are resident an SM: 132 to 264 rows of 128 KB (N = 65536 bfloat16) is 17 to
// 34 MB, which stays in the H200's 60 MB L2 between the three passes over the row (sum, deviations,
// output), where block_row's 4 blocks an SM (67 MB) would not. No intermediate in global memory;
// 4.2 KB of shared memory a block; 58 to 73 registers. Bets on N = 16384 to 65536.
// targets: cuda
// 16-bit types load and store 16 bytes at a time since 2026-12-02 (fuselab/wide_accesses.h;
// correct on the H200 then, results/runs/2026-12-02-h200-s12/rows).
// Where it wins (the committed tables; per-N figures there, not here): on the H200 it is fuselab's
// best at none of layernorm's 18 row cells (results/h200.md, s38's records). It has no CPU
// form (targets: cuda), so none of results/cpu.md's cells.
// Since s20 (2026-12-03) chunked_row runs the lengths it won (N = 65536 to 262144): float32 2.59
// to 2.63 TB/s against its 1.79 to 2.24, bfloat16 2.17 to 2.21 against 1.71 to 2.00
// (results/runs/2026-12-03-h200-s20/c, one call). On the suite's 16 lengths it is fastest at none;
// it stays for the measured random shapes it wins (s18, s19), where chunked_row was not timed.
// summary: one kernel, one row a block of 512 threads (few rows resident: the re-reads hit L2)
#include "layernorm.h"
#include "rows_common.h"

namespace fuselab {

FUSELAB_SCHEDULE(Layernorm, block_row_wide) {
    using namespace Halide;
    const int T = 512, V = rows::vec_elems(g.x.type());
    const LoopLevel block = rows::gpu_block_rows(g.out, g.i, g.row, T, V);
    rows::gpu_block_stat(g.sum, g.r.x, block, g.row, T, V);
    rows::gpu_block_stat(g.sumsq, g.r.x, block, g.row, T, V);
    rows::align_buffers(g.x, g.w, g.b, g.out);
    fuselab::wide_accesses(g, target);
    g.out.specialize(rows::aligned_rows(V, g.x, g.out));
}

}  // namespace fuselab
