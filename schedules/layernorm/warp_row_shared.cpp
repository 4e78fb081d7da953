// warp_row_shared: warp_row's loop nest (one warp a row, 8 rows a block of 256 threads, 16 bytes a
// lane a step), with both statistics combined through shared memory: each lane's partial to shared
// memory, then one thread a row (8 threads of warp 0) reduces the row's 32 partials, 1.1 KB a
// block, 58 to 75 registers. Bets that for short rows a block's barrier and 8 threads' 32 loads
// cost fewer issue slots than warp_row's shuffles (every lane issuing 32 shfl.sync and 32 adds).
// targets: cuda
// Measured: not timed yet (the H200 run s10 ran out of budget before layernorm); its CUDA forms
// passed the tests and the sweep there (results/runs/2026-12-02-h200-s10/b).
// summary: one warp a row, 8 rows a block; mean and variance combined through shared memory
#include "layernorm.h"
#include "rows_common.h"

namespace fuselab {

FUSELAB_SCHEDULE(Layernorm, warp_row_shared) {
    using namespace Halide;
    const int R = 8, V = rows::vec_elems(g.x.type());
    rows::gpu_warp_rows(g.out, g.i, g.row, R, V);
    const LoopLevel block = rows::gpu_warp_rows_block(g.out, g.row);
    rows::gpu_warp_stat(g.sum, g.r.x, block, g.row, V);
    rows::gpu_warp_stat(g.sumsq, g.r.x, block, g.row, V);
    rows::align_buffers(g.x, g.w, g.b, g.out);
    g.out.specialize(rows::aligned_rows(V, g.x, g.out));
}

}  // namespace fuselab
