// warp_row_shared: warp_row's loop nest (one warp a row, 8 rows a block of 256 threads, 16 bytes a
// lane a step), with both the max and the sum combined through shared memory: each lane's partial
// to shared memory, then one thread a row (8 threads of warp 0) reduces the row's 32 partials, 1.1
// KB a block, 48 to 59 registers. Bets that for short rows a block's barrier and 8 threads' 32
// loads cost fewer issue slots than warp_row's shuffles (every lane of every warp issuing 32
// shfl.sync and 32 adds a statistic).
// targets: cuda
// Measured (H200, 2^26 elements, results/runs/2026-12-02-h200-s10/c): float32: N=256 327 us, N=4096
// 261 us, N=262144 802 us; bfloat16: N=256 329 us, N=4096 138 us, N=262144 1085 us.
// summary: one warp a row, 8 rows a block; max and sum combined through shared memory
#include "rows_common.h"
#include "softmax.h"

namespace fuselab {

FUSELAB_SCHEDULE(Softmax, warp_row_shared) {
    using namespace Halide;
    const int R = 8, V = rows::vec_elems(g.x.type());
    rows::gpu_warp_rows(g.out, g.i, g.row, R, V);
    const LoopLevel block = rows::gpu_warp_rows_block(g.out, g.row);
    rows::gpu_warp_stat(g.mx, g.r.x, block, g.row, V);
    rows::gpu_warp_stat(g.sum, g.r.x, block, g.row, V);
    rows::align_buffers(g.x, g.out);
    g.out.specialize(rows::aligned_rows(V, g.x, g.out));
}

}  // namespace fuselab
