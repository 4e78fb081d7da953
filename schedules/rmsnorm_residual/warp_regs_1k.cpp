// warp_regs_1k: one kernel, one warp a row, 4 rows a block, the row held in registers: rows of
// at most 1024 elements (row_limit), each lane holding its 32 of h = x + residual widened to
// float32; h is stored again from x and residual, re-read from L1 (Halide 21 put the
// storage-type copy of h in global memory when the output h read it from the warp's level). The
// sum of h^2: each lane's partial from its registers, then the 32 partials combined by 11
// shuffles (rows_common.h: gpu_lane_tree) inside the output's lanes. No shared memory, no
// barrier (gpu_warp_regs, gpu_warp_stat_in; rows_forms.h: gpu_warp_regs_rows). Specialized on
// rows of exactly 256, 512 or 1024 and on rows of whole 32-lane steps, where every guard but one
// a step folds away (16-byte loads and stores only). Wins at N = 256 to 1024 in the 16-bit types
// where the row is whole 32-lane steps. results/runs/2026-12-03-h200-s17 (a/summary.txt: TB/s at
// the minimum bytes, copy 4.21; a/ncu: Nsight Compute, results/rows_ncu.md): bfloat16 N = 256
// 3.83 (torch_compile 4.09), 512 4.02, 1024 3.81 (4.11); float16 256 4.06 (4.07), 1024 3.94;
// float32 256 4.02 (warp_row 4.03, Liger 4.10). bfloat16 N = 256 runs 46 instructions an element
// (two outputs narrowed by integer rounding) at 82% occupancy. Loses at N = 1000 (a guard an
// element): bfloat16 2.50 against warp_row's 2.99; longer rows are refused in words.
// targets: cuda
// row_limit: 1024 elements
// params: row_pad=1024
// summary: one warp a row, 4 rows a block, rows of at most 1024 held in registers
#include "row_funcs.h"

namespace fuselab {

FUSELAB_SCHEDULE(RmsnormResidual, warp_regs_1k) {
    using namespace rows;
    const int V = vec_elems(g.x.type()), B = 1024;
    align_buffers(g.x, g.residual, g.w, g.out, g.h);
    const Expr n = g.x.dim(0).extent();
    const Expr aligned = aligned_rows(V, g.x, g.residual, g.out, g.h);
    const Expr padded = g.row_pad > 0 ? Expr(g.r.x.extent()) : Expr();
    const LoopLevel warp =
        gpu_warp_regs_rows(g.out, g.h, g.i, g.row, 4, V, B, n, aligned, g.row_pad);
    gpu_warp_regs(g.hf, g.i, warp, V, B, padded);
    gpu_warp_stat_in(g.sumsq, g.r, warp, gpu_warp_rows_lane(g.out, g.i), g.row, V, B);
    wide_accesses(g, target);
}

}  // namespace fuselab
