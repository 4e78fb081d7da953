// warp_regs_1k: one kernel, one warp a row, 4 rows a block, the row held in registers: rows of at
// most 1024 elements (row_limit), each lane holding its 32 of them, as float32, twice (x widened,
// then x less the row's mean). So the row is read from DRAM once. The sum and the sum of squares:
// each lane's partial from its registers, then the 32 partials read by shfl.sync.idx (unrolled)
// inside the lanes of the one stage that reads it (the sum in the centred row's, the sum of squares
// in the output's). No shared memory, no barrier (rows_common.h: gpu_warp_regs, gpu_warp_stat_in;
// rows_forms.h: gpu_warp_regs_rows). Specialized on rows of exactly 256, 512 or 1024 and on rows of
// whole 32-lane steps, where every guard but one a step folds away (the PTX of those kernels:
// 16-byte loads and stores only, no local memory). Wins at N = 256 to 1024 where the row is whole
// 32-lane steps; H200 TB/s at the minimum bytes, results/runs/2026-12-03-h200-s16 (d/, summary.txt;
// copy 4.21): float32 N = 256 3.98 (warp_row 2.86; torch_compile 4.08 in the same call), 1024 3.99;
// bfloat16 256 2.52 (warp_row 1.31), 1024 3.35; float16 256 2.75, 1024 3.80. Loses at N = 1000 (not
// whole 32-lane steps): a guard an element, float32 2.71 against warp_row's 2.86; longer rows are
// refused in words. The 32 shuffles a statistic are its cost against a butterfly's 5, which Halide
// 21 lowers wrongly (HALIDE-CUDA-NOTES.md).
// targets: cuda
// row_limit: 1024 elements
// summary: one warp a row, 4 rows a block, rows of at most 1024 held in registers
#include "row_funcs.h"

namespace fuselab {

FUSELAB_SCHEDULE(Layernorm, warp_regs_1k) {
    using namespace rows;
    const int V = vec_elems(g.x.type()), B = 1024;
    align_buffers(g.x, g.w, g.b, g.out);
    const Expr n = g.x.dim(0).extent(), aligned = aligned_rows(V, g.x, g.out);
    const LoopLevel warp = gpu_warp_regs_rows(g.out, Func(), g.i, g.row, 4, V, B, n, aligned);
    gpu_warp_regs(g.xf, g.i, warp, V, B);
    const LoopLevel xc_lane = gpu_warp_regs(g.xc, g.i, warp, V, B);
    gpu_warp_stat_in(g.sum, g.r, warp, xc_lane, g.row, V, B);
    gpu_warp_stat_in(g.sumsq, g.r, warp, gpu_warp_rows_lane(g.out, g.i), g.row, V, B);
    wide_accesses(g, target);
}

}  // namespace fuselab
