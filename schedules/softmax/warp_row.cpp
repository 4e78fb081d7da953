// warp_row: one kernel, one warp a row, 8 rows (256 threads) a block: the 32 lanes side by side
// over the row, 16 bytes a lane a step, 16 elements a lane in flight. The sum is reduced by warp
// shuffles (HALIDE-CUDA-NOTES.md's one-warp form: each lane's partial in lane-striped registers,
// each lane reading the 32 partials by shfl.sync.idx inside the output's lane loop); the max, which
// the sum's pass reads too, through shared memory (each lane's partial, then one thread a row over
// the 32), 1.1 KB a block; 48 to 64 registers. No intermediate in global memory; the row read three
// times, from DRAM once, then from L1. Bets on short rows (N = 256 to 2048), where a block row's
// threads would mostly idle and a block's barriers cost more than a warp's shuffles.
// targets: cuda
// Measured 2026-12-02 (results/runs/2026-12-02-h200-s11, -cpu-s11), at the minimum bytes, 2^26
// elements a call on the H200 and 2^22 on the CPU, by N (*: the fastest strategy there): H200 TB/s:
// float32 256 1.85*, 1k 3.59*, 4k 2.07, 16k 2.03, 64k 1.72, 256k 0.68; bfloat16 256 1.03*, 1k
// 2.28*, 4k 2.02*, 16k 1.79, 64k 0.86, 256k 0.25; float16 256 0.76*, 1k 1.37*, 4k 1.54*, 16k 1.45,
// 64k 0.75, 256k 0.21; CPU: not built.
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
