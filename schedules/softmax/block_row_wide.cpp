// block_row_wide: block_row's one kernel with 512 threads a row (16 bytes a thread a step), so that
// only one or two rows are resident an SM: 132 to 264 rows of 128 KB (N = 65536 bfloat16) is 17 to
// 34 MB, which stays in the H200's 60 MB L2 between the three passes over the row (max, sum,
// output), where block_row's 4 blocks an SM (67 MB) would not. No intermediate in global memory;
// 4.2 KB of shared memory a block; 52 to 64 registers. Bets on N = 16384 to 65536.
// targets: cuda
// Measured (H200, 2^26 elements, results/runs/2026-12-02-h200-s10/c): float32: N=256 2972 us,
// N=4096 347 us, N=262144 262 us; bfloat16: N=256 4121 us, N=4096 309 us, N=262144 150 us.
// summary: one kernel, one row a block of 512 threads (few rows resident: the re-reads hit L2)
#include "rows_common.h"
#include "softmax.h"

namespace fuselab {

FUSELAB_SCHEDULE(Softmax, block_row_wide) {
    using namespace Halide;
    const int T = 512, V = rows::vec_elems(g.x.type());
    const LoopLevel block = rows::gpu_block_rows(g.out, g.i, g.row, T, V);
    rows::gpu_block_stat(g.mx, g.r.x, block, g.row, T, V);
    rows::gpu_block_stat(g.sum, g.r.x, block, g.row, T, V);
    rows::align_buffers(g.x, g.out);
    g.out.specialize(rows::aligned_rows(V, g.x, g.out));
}

}  // namespace fuselab
