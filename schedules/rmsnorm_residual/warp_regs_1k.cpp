// warp_regs_1k: one kernel, one warp a row, 4 rows a block, the row held in registers: rows of at
// most 1024 elements (row_limit), each lane holding its 32 of h = x + residual widened to float32;
// h is stored again from x and residual, re-read from L1 (Halide 21 put the storage-type copy of h
// in global memory when the output h read it from the warp's level). The sum of h^2: each lane's
// partial from its registers, then the 32 partials read by shfl.sync.idx (unrolled) inside the
// output's lanes. No shared memory, no barrier (rows_common.h: gpu_warp_regs, gpu_warp_stat_in;
// rows_forms.h: gpu_warp_regs_rows). Specialized on rows of exactly 256, 512 or 1024 and on rows of
// whole 32-lane steps, where every guard but one a step folds away (the PTX of those kernels:
// 16-byte loads and stores only, no local memory). Wins at N = 256 to 1024 where the row is whole
// 32-lane steps; H200 TB/s at the minimum bytes, results/runs/2026-12-03-h200-s16 (d/, summary.txt;
// copy 4.21): float32 N = 256 4.08 (liger 4.11 in the same call); bfloat16 256 3.53 (warp_row
// 2.95), 512 3.99, 1024 3.78; float16 256 4.01, 1024 3.93. Loses at N = 1000 (not whole 32-lane
// steps): a guard an element, bfloat16 2.35 against warp_row's 2.94; float32 N = 512 and 1024 are
// warp_row's and staged_row_2k's; longer rows are refused in words. The 32 shuffles a statistic are
// its cost against a butterfly's 5, which Halide 21 lowers wrongly (HALIDE-CUDA-NOTES.md).
// targets: cuda
// row_limit: 1024 elements
// summary: one warp a row, 4 rows a block, rows of at most 1024 held in registers
#include "row_funcs.h"

namespace fuselab {

FUSELAB_SCHEDULE(RmsnormResidual, warp_regs_1k) {
    using namespace rows;
    const int V = vec_elems(g.x.type()), B = 1024;
    align_buffers(g.x, g.residual, g.w, g.out, g.h);
    const Expr n = g.x.dim(0).extent();
    const Expr aligned = aligned_rows(V, g.x, g.residual, g.out, g.h);
    const LoopLevel warp = gpu_warp_regs_rows(g.out, g.h, g.i, g.row, 4, V, B, n, aligned);
    gpu_warp_regs(g.hf, g.i, warp, V, B);
    gpu_warp_stat_in(g.sumsq, g.r, warp, gpu_warp_rows_lane(g.out, g.i), g.row, V, B);
    wide_accesses(g, target);
}

}  // namespace fuselab
