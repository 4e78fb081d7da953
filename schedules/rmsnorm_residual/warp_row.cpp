// warp_row: one kernel, one warp a row, 8 rows (256 threads) a block: the 32 lanes side by side
// over the row, 16 bytes of x and of residual a lane a step. The sum of h^2 is reduced by warp
// shuffles (HALIDE-CUDA-NOTES.md's one-warp form: each lane's partial in lane-striped registers,
// each lane reading the 32 partials by shfl.sync.idx inside the output's lane loop); no shared
// memory; 60 to 70 registers (120 in the branch for unaligned float32 rows). Then each lane writes
// h and out together (compute_with), re-reading x and residual from L1. No intermediate in global
// memory. Bets on short rows (N = 256 to 2048).
// targets: cuda
// Measured 2026-12-02 (results/runs/2026-12-02-h200-s11, -cpu-s11), at the minimum bytes, 2^26
// elements a call on the H200 and 2^22 on the CPU, by N (*: the fastest strategy there): H200 TB/s:
// float32 256 2.39*, 1k 3.95*, 4k 2.78, 16k 2.69, 64k 2.64, 256k 1.59; bfloat16 256 2.38*, 1k
// 3.38*, 4k 2.46, 16k 2.47, 64k 1.61, 256k 0.51; float16 256 1.21*, 1k 1.50*, 4k 1.52*, 16k 1.44,
// 64k 1.06, 256k 0.29; CPU: not built.
// summary: one warp a row, 8 rows a block; sum of h^2 by warp shuffles, h and out together
#include "rmsnorm_residual.h"
#include "rows_common.h"

namespace fuselab {

FUSELAB_SCHEDULE(RmsnormResidual, warp_row) {
    using namespace Halide;
    const int R = 8, V = rows::vec_elems(g.x.type());
    const LoopLevel warp = rows::gpu_warp_rows(g.out, g.i, g.row, R, V);
    rows::gpu_warp_rows_with(g.h, g.out, g.i, g.row, R, V);
    const LoopLevel lane = rows::gpu_warp_rows_lane(g.out, g.i);
    rows::gpu_warp_stat_shfl(g.sumsq, g.r.x, warp, lane, g.row, V);
    rows::align_buffers(g.x, g.residual, g.w, g.out, g.h);
    g.out.specialize(rows::aligned_rows(V, g.x, g.residual, g.out, g.h));
}

}  // namespace fuselab
