// warp_regs_1k: one kernel, one warp a row, 4 rows a block, the row held in registers: rows of
// at most 1024 elements (row_limit), each lane holding its 32 of them, as float32, twice (x
// widened, then x less the row's mean). So the row is read from DRAM once. The sum and the sum
// of squares: each lane's partial from its registers, then the 32 partials combined by 11
// shuffles (rows_common.h: gpu_lane_tree) inside the lanes of the one stage that reads it. No
// shared memory, no barrier (gpu_warp_regs, gpu_warp_stat_in; rows_forms.h: gpu_warp_regs_rows).
// Specialized on rows of exactly 256, 512 or 1024 and on rows of whole 32-lane steps, where
// every guard but one a step folds away (16-byte loads and stores only). Wins at N = 256 to 1024
// where the row is whole 32-lane steps. results/runs/2026-12-03-h200-s17 (a/summary.txt: TB/s at
// the minimum bytes, copy 4.21; a/ncu: Nsight Compute, results/rows_ncu.md): float32 N = 256
// 4.11 (torch_compile 4.10), 1024 3.99 (4.10); bfloat16 256 3.11 (3.92), 1024 3.52 (3.91);
// float16 256 3.69, 1024 3.83. The 16-bit rows are issue-bound: bfloat16 N = 256 runs 30
// instructions an element at 85% occupancy, top stalls not_selected and long_scoreboard. Before
// the shuffle tree (32 shfl.idx a statistic) bfloat16 N = 256 ran 2.52. At N = 1000 (not whole
// 32-lane steps: a guard an element) it still leads, but slowly: float32 3.38 (warp_row 2.93),
// bfloat16 1.99 (warp_row 1.60). Longer rows are refused in words.
// targets: cuda
// row_limit: 1024 elements
// params: row_pad=1024
// summary: one warp a row, 4 rows a block, rows of at most 1024 held in registers
#include "row_funcs.h"

namespace fuselab {

FUSELAB_SCHEDULE(Layernorm, warp_regs_1k) {
    using namespace rows;
    const int V = vec_elems(g.x.type()), B = 1024;
    align_buffers(g.x, g.w, g.b, g.out);
    const Expr n = g.x.dim(0).extent(), aligned = aligned_rows(V, g.x, g.out);
    const Expr padded = g.row_pad > 0 ? Expr(g.r.x.extent()) : Expr();
    const LoopLevel warp =
        gpu_warp_regs_rows(g.out, Func(), g.i, g.row, 4, V, B, n, aligned, g.row_pad);
    gpu_warp_regs(g.xf, g.i, warp, V, B, padded);
    const LoopLevel xc_lane = gpu_warp_regs(g.xc, g.i, warp, V, B, padded);
    gpu_warp_stat_in(g.sum, g.r, warp, xc_lane, g.row, V, B);
    gpu_warp_stat_in(g.sumsq, g.r, warp, gpu_warp_rows_lane(g.out, g.i), g.row, V, B);
    wide_accesses(g, target);
}

}  // namespace fuselab
