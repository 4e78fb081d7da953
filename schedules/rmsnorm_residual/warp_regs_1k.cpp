// warp_regs_1k: one kernel, one warp a row, 4 rows a block, the row held in registers: rows of
// at most 1024 elements (row_limit), each lane holding its 32 of h = x + residual widened to
// float32; h is stored again from x and residual, re-read from L1 (Halide 21 put the
// storage-type copy of h in global memory when the output h read it from the warp's level; so
// did a padded h read from the registers, s23). The sum of h^2: each lane's partial from its
// registers, then the 32 partials combined by 8 shuffles (rows_common.h: gpu_lane_tree) inside
// the output's lanes. No shared memory, no barrier (gpu_warp_regs, gpu_warp_stat_in). 1 / sqrt by
// the hardware's rsqrt once a lane (params: fast_rsqrt, generators/rmsnorm_residual.h).
// Rows of any length up to 1024 run a constant form: the statistics reduce over the row padded to
// 256, 512, 768 or 1024 elements (generators/row_pad.h, params row_pad=1024), past N re-reading the
// row's last 16-byte vector (an odd row: its last element) and masked by a select, and the output
// specialized on each rung (rows_forms.h: gpu_warp_regs_rows), so every load of the row is
// unconditional; the output's last step is guarded (h and out computed together: the output's
// vector-first cut is not applied here). Before (s22), rows other than 256, 512 and 1024 ran one
// general kernel with a guard an element: Nsight Compute on softmax bfloat16 N = 280
// (results/runs/2026-12-04-h200-s23/c, results/rows_ncu.md s23): 95 registers, 29% occupancy,
// compute-bound, 194 us where N = 256 took 35 (26 registers, 83%). Padded, the 41 table shapes of N
// <= 1024 in three types ran 1.55x faster, up to 3.8x at N = 184, (geometric mean, same session,
// results/runs/2026-12-04-h200-s23/f against b_unpadded; rows of 901 in bfloat16 up to 15% slower:
// odd rows padded to 1024 element loads).
// Wins at N = 184 to 1024 (s23 b/short.json, 2^25 elements, copy 4.19 TB/s): float32 N = 184
// 3.99 TB/s (torch.compile 3.97), 280 4.01 (4.03); float16 736 3.80 (3.83); bfloat16 stays
// behind torch.compile at short rows (184: 1.67 against 3.80; 1024: 3.63 against 3.88): two
// outputs narrowed by integer rounding, 46 instructions an element at N = 256 (s17). Longer rows
// are refused in words.
// targets: cuda
// row_limit: 1024 elements
// params: row_pad=1024 fast_rsqrt=true
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
