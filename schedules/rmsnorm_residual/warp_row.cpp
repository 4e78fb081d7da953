// warp_row: one kernel, one warp a row, 4 rows (128 threads) a block: the 32 lanes side by side
// over the row, 16 bytes a lane a step (16-bit types as 32-bit words: fuselab/wide_accesses.h),
// 2 vectors a lane in flight in the statistics' passes, 1 in the output's.
// The sum of squares by warp shuffles (shfl.sync), h stored beside out from the same loads.
// No intermediate in global memory; the row read from DRAM once, then from L1. Specialized on
// N >= 32 V (every lane holds a whole vector), where the reductions' last steps lose their tail
// guards. Why these numbers: the H200 search (tools/row_search.cpp, results/rows_search.md) over
// 1, 2 and 4 vectors in flight and 2, 4, 8 and 16 rows a block. The profile (results/rows_ncu.md)
// of the earlier form (8 rows a block, 4 float32 vectors in flight) at N = 256: 57 to 91
// instructions an element, barrier and scoreboard stalls, 47% achieved occupancy in softmax
// float32, 22% in rmsnorm_residual float32 (120 registers); a form of 4 rows a block used 40
// registers there and reached 69%. Loses from N ~ 4096 on: a warp's row no longer stays in L1
// between the passes and the re-reads come from DRAM (3.0x the minimum read in softmax float32).
// Measured 2026-12-02 (results/runs/2026-12-02-h200-s12, the search's JIT build of this form,
// warp_r4_u2_o1; copy 4.17 TB/s), H200 TB/s at the minimum bytes, float32: N = 256 4.02 (the
// 2-rows form 4.19), 512 4.07*, 1000 3.66*, 2048 2.91, 3000 2.76 (*: the fastest candidate timed;
// 1.68x the 8-rows form at N = 256, 1.12 to 1.21x at 512 and 1000, 0.96 to 0.99x at 2048 and
// 3000). The 16-bit types were not timed in this form.
// targets: cuda
// summary: one warp a row, 4 rows a block; the sum of squares by warp shuffles, h stored beside out
#include "row_funcs.h"

namespace fuselab {

FUSELAB_SCHEDULE(RmsnormResidual, warp_row) {
    rows::Form form;
    form.kind = rows::Form::Warp, form.rows = 4, form.steps = 2, form.out_steps = 1;
    rows::gpu_rows(g, form, target);
}

}  // namespace fuselab
