// warp_row: one kernel, one warp a row, 8 rows (256 threads) a block: the 32 lanes side by side
// over the row, 16 bytes a lane a step, 16 elements a lane in flight. The sum is reduced by warp
// shuffles (HALIDE-CUDA-NOTES.md's one-warp form: each lane's partial in lane-striped registers,
// each lane reading the 32 partials by shfl.sync.idx inside the output's lane loop); the max, which
// the sum's pass reads too, through shared memory (each lane's partial, then one thread a row over
// the 32), 1.1 KB a block; 48 to 64 registers. No intermediate in global memory; the row read three
// times, from DRAM once, then from L1. Bets on short rows (N = 256 to 2048), where a block row's
// threads would mostly idle and a block's barriers cost more than a warp's shuffles.
// targets: cuda
// Measured (H200, 2^26 elements, results/runs/2026-12-02-h200-s10/c): float32: N=256 290 us, N=4096
// 259 us, N=262144 795 us; bfloat16: N=256 260 us, N=4096 133 us, N=262144 1073 us.
// summary: one warp a row, 8 rows a block; the sum by warp shuffles, the max through shared memory
#include "rows_common.h"
#include "softmax.h"

namespace fuselab {

FUSELAB_SCHEDULE(Softmax, warp_row) {
    using namespace Halide;
    const int R = 8, V = rows::vec_elems(g.x.type());
    const LoopLevel warp = rows::gpu_warp_rows(g.out, g.i, g.row, R, V);
    const LoopLevel block = rows::gpu_warp_rows_block(g.out, g.row);
    const LoopLevel lane = rows::gpu_warp_rows_lane(g.out, g.i);
    rows::gpu_warp_stat(g.mx, g.r.x, block, g.row, V);
    rows::gpu_warp_stat_shfl(g.sum, g.r.x, warp, lane, g.row, V);
    rows::align_buffers(g.x, g.out);
    g.out.specialize(rows::aligned_rows(V, g.x, g.out));
}

}  // namespace fuselab
