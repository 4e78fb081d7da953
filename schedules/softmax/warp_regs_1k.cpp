// warp_regs_1k: one kernel, one warp a row, 4 rows a block, the row held in registers: rows of
// at most 1024 elements (row_limit), each lane holding its 32 of them, as float32, twice (x
// widened, then exp(x - max)). So the row is read from DRAM once and exp computed once an
// element. The max and the sum: each lane's partial from its registers, then the 32 partials
// combined by 11 shuffles (rows_common.h: gpu_lane_tree) inside the lanes of the one stage that
// reads it. No shared memory, no barrier (gpu_warp_regs, gpu_warp_stat_in; rows_forms.h:
// gpu_warp_regs_rows). Specialized on rows of exactly 256, 512 or 1024 and on rows of whole
// 32-lane steps, where every guard but one a step folds away (16-byte loads and stores only).
// Wins at N = 256 to 1024 where the row is whole 32-lane steps. results/runs/2026-12-03-h200-s17
// (a/summary.txt: TB/s at the minimum bytes, copy 4.21; a/ncu: Nsight Compute,
// results/rows_ncu.md): float32 N = 256 4.10 (torch_eager 4.08), 1024 4.07 (Liger 4.13);
// bfloat16 256 3.20 (torch_compile 3.89), 1024 3.85 (3.84); float16 256 3.78 (3.70), 1024 3.85.
// The 16-bit rows are issue-bound: bfloat16 N = 256 runs 27 instructions an element at 84%
// occupancy, its top stalls not_selected and math_pipe_throttle (float32: 18, long_scoreboard,
// the memory); bfloat16's narrowing to its bits is integer rounding, float16's one conversion.
// Before the shuffle tree (32 shfl.idx a statistic) bfloat16 N = 256 ran 2.34. Loses at N = 1000
// (not whole 32-lane steps: a guard an element): float32 3.17 against warp_row's 3.31, bfloat16
// 1.86 against 2.14; longer rows are refused in words.
// targets: cuda
// row_limit: 1024 elements
// summary: one warp a row, 4 rows a block, rows of at most 1024 held in registers
#include "row_funcs.h"

namespace fuselab {

FUSELAB_SCHEDULE(Softmax, warp_regs_1k) {
    using namespace rows;
    const int V = vec_elems(g.x.type()), B = 1024;
    align_buffers(g.x, g.out);
    const Expr n = g.x.dim(0).extent(), aligned = aligned_rows(V, g.x, g.out);
    const LoopLevel warp = gpu_warp_regs_rows(g.out, Func(), g.i, g.row, 4, V, B, n, aligned);
    gpu_warp_regs(g.xf, g.i, warp, V, B);
    const LoopLevel ex_lane = gpu_warp_regs(g.ex, g.i, warp, V, B);
    gpu_warp_stat_in(g.mx, g.r, warp, ex_lane, g.row, V, B);
    gpu_warp_stat_in(g.sum, g.r, warp, gpu_warp_rows_lane(g.out, g.i), g.row, V, B);
    wide_accesses(g, target);
}

}  // namespace fuselab
