// warp_row: one kernel, one warp a row, 8 rows (256 threads) a block: the 32 lanes side by side
// over the row, 16 bytes a lane a step, 16 elements a lane in flight. The sum of squared deviations
// is reduced by warp shuffles (HALIDE-CUDA-NOTES.md's one-warp form: each lane's partial in
// lane-striped registers, each lane reading the 32 partials by shfl.sync.idx inside the output's
// lane loop); the sum (the mean), which the deviations' pass reads too, through shared memory (each
// lane's partial, then one thread a row over the 32), 1.1 KB a block; 61 to 72 registers. No
// intermediate in global memory; the row read three times, from DRAM once, then from L1. Bets on
// short rows (N = 256 to 2048).
// targets: cuda
// Measured 2026-12-02 (results/runs/2026-12-02-h200-s11, -cpu-s11), at the minimum bytes, 2^26
// elements a call on the H200 and 2^22 on the CPU, by N (*: the fastest strategy there): H200 TB/s:
// float32 256 1.43*, 1k 3.31*, 4k 1.94, 16k 1.81, 64k 1.50, 256k 0.53; bfloat16 256 0.85*, 1k
// 1.91*, 4k 2.18*, 16k 1.76, 64k 0.88, 256k 0.26; float16 256 0.55*, 1k 0.98*, 4k 1.17*, 16k 1.04,
// 64k 0.70, 256k 0.19; CPU: not built.
// summary: one warp a row, 8 rows a block; variance by warp shuffles, mean via shared memory
#include "layernorm.h"
#include "rows_common.h"

namespace fuselab {

FUSELAB_SCHEDULE(Layernorm, warp_row) {
    using namespace Halide;
    const int R = 8, V = rows::vec_elems(g.x.type());
    const LoopLevel warp = rows::gpu_warp_rows(g.out, g.i, g.row, R, V);
    const LoopLevel block = rows::gpu_warp_rows_block(g.out, g.row);
    const LoopLevel lane = rows::gpu_warp_rows_lane(g.out, g.i);
    rows::gpu_warp_stat(g.sum, g.r.x, block, g.row, V);
    rows::gpu_warp_stat_shfl(g.sumsq, g.r.x, warp, lane, g.row, V);
    rows::align_buffers(g.x, g.w, g.b, g.out);
    g.out.specialize(rows::aligned_rows(V, g.x, g.out));
}

}  // namespace fuselab
