// warp_regs_1k: one kernel, one warp a row, 4 rows a block, the row held in registers: rows of
// at most 1024 elements (row_limit), each lane holding its 32 of them, as float32, twice (x
// widened, then exp(x - max)). So the row is read from DRAM once and exp computed once an
// element. The max and the sum: each lane's partial from its registers, then the 32 partials
// combined by 11 shuffles (rows_common.h: gpu_lane_tree) inside the lanes of the one stage that
// reads it. No shared memory, no barrier (gpu_warp_regs, gpu_warp_stat_in; rows_forms.h:
// gpu_warp_regs_rows). Specialized on rows of exactly 256, 512 or 1024 and on rows of whole
// 32-lane steps, where every guard but one a step folds away (16-byte loads and stores only).
// Wins at N = 256 to 1024 where the row is whole 32-lane steps (H200 TB/s at the minimum bytes,
// results/runs/2026-12-03-h200-s19, grid_summary.txt, copy 4.18): float32 N = 256 4.08
// (torch_eager 4.07), 1024 4.03 (Liger 4.09); bfloat16 256 3.57 (torch_compile 3.83), 1024 3.82
// (3.86); float16 256 3.84 (3.90), 1024 3.85 (3.92). The 16-bit rows are issue-bound: bfloat16
// N = 256 runs 22 instructions an element at 81% occupancy (27 before its widening as words and
// its NaN test once a row, s19; results/rows_ncu.md), its top stalls long_scoreboard and
// not_selected (float32 in s17: 18, long_scoreboard, the memory). Before the shuffle tree (32
// shfl.idx a statistic) bfloat16 N = 256 ran 2.34. Loses at N = 1000 (not whole 32-lane steps: a
// guard an element) to warp_row; longer rows are refused in words.
// targets: cuda
// row_limit: 1024 elements
// params: row_pad=1024
// summary: one warp a row, 4 rows a block, rows of at most 1024 held in registers
#include "row_funcs.h"

namespace fuselab {

FUSELAB_SCHEDULE(Softmax, warp_regs_1k) {
    using namespace rows;
    const int V = vec_elems(g.x.type()), B = 1024;
    align_buffers(g.x, g.out);
    const Expr n = g.x.dim(0).extent(), aligned = aligned_rows(V, g.x, g.out);
    const Expr padded = g.row_pad > 0 ? Expr(g.r.x.extent()) : Expr();
    const LoopLevel warp =
        gpu_warp_regs_rows(g.out, Func(), g.i, g.row, 4, V, B, n, aligned, g.row_pad);
    gpu_warp_regs(g.xf, g.i, warp, V, B, padded);
    const LoopLevel ex_lane = gpu_warp_regs(g.ex, g.i, warp, V, B, padded);
    gpu_warp_stat_in(g.mx, g.r, warp, ex_lane, g.row, V, B);
    gpu_warp_stat_in(g.sum, g.r, warp, gpu_warp_rows_lane(g.out, g.i), g.row, V, B);
    wide_accesses(g, target);
}

}  // namespace fuselab
