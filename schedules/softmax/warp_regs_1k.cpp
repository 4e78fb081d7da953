// warp_regs_1k: one kernel, one warp a row, 4 rows a block, the row held in registers: rows of at
// most 1024 elements (row_limit), each lane holding its 32 of them, as float32, twice (x widened,
// then exp(x - max)). So the row is read from DRAM once and exp computed once an element. The max
// and the sum: each lane's partial from its registers, then the 32 partials read by shfl.sync.idx
// (32 a statistic, unrolled) inside the lanes of the one stage that reads it (the max in exp's, the
// sum in the output's). No shared memory, no barrier (rows_common.h: gpu_warp_regs,
// gpu_warp_stat_in; rows_forms.h: gpu_warp_regs_rows). Specialized on rows of exactly 256, 512 or
// 1024 and on rows of whole 32-lane steps, where every guard but one a step folds away (the PTX of
// those kernels: 16-byte loads and stores only, no local memory). Wins at N = 256 to 1024 where the
// row is whole 32-lane steps; H200 TB/s at the minimum bytes, results/runs/2026-12-03-h200-s16 (d/,
// summary.txt; copy 4.21): float32 N = 256 4.06 (warp_row 3.27; torch_eager 4.07 in the same call),
// 1024 4.06; bfloat16 256 2.34 (warp_row 1.73), 1024 3.73; float16 256 2.90, 1024 3.85
// (torch_compile 3.86). Loses at N = 1000, rows that are not whole 32-lane steps (32 V elements),
// run a form with a guard an element, slower than warp_row: float32 2.57 against 3.24, bfloat16
// 1.41 against 2.08; longer rows are refused in words. The 32 shuffles a statistic are its cost
// against a butterfly's 5, which Halide 21 lowers wrongly (HALIDE-CUDA-NOTES.md).
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
