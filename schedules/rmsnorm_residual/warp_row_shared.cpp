// warp_row_shared: warp_row's loop nest (one warp a row, 8 rows a block of 256 threads, 16 bytes a
// lane a step), with the sum of h^2 combined through shared memory: each lane's partial to shared
// memory, then one thread a row (8 threads of warp 0) reduces the row's 32 partials, 1.1 KB a
// block, 61 to 64 registers (122 in the branch for unaligned float32 rows). Bets that a block's
// barrier and 8 threads' 32 loads cost fewer issue slots than warp_row's shuffles (every lane
// issuing 32 shfl.sync and 32 adds).
// targets: cuda
// Measured (H200, 2^26 elements, results/runs/2026-12-02-h200-s10/c): float32: N=256 488 us, N=4096
// 388 us, N=262144 673 us; bfloat16: N=256 266 us, N=4096 210 us, N=262144 1058 us.
// summary: one warp a row, 8 rows a block; the sum of h^2 combined through shared memory
#include "rmsnorm_residual.h"
#include "rows_common.h"

namespace fuselab {

FUSELAB_SCHEDULE(RmsnormResidual, warp_row_shared) {
    using namespace Halide;
    const int R = 8, V = rows::vec_elems(g.x.type());
    rows::gpu_warp_rows(g.out, g.i, g.row, R, V);
    rows::gpu_warp_rows_with(g.h, g.out, g.i, g.row, R, V);
    const LoopLevel block = rows::gpu_warp_rows_block(g.out, g.row);
    rows::gpu_warp_stat(g.sumsq, g.r.x, block, g.row, V);
    rows::align_buffers(g.x, g.residual, g.w, g.out, g.h);
    g.out.specialize(rows::aligned_rows(V, g.x, g.residual, g.out, g.h));
}

}  // namespace fuselab
