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
// Where it wins (the committed tables; per-N figures there, not here): on the H200 it is fuselab's
// best at none of rmsnorm_residual's 18 row cells (results/h200.md, s38's records). It has no CPU
// form (targets: cuda), so none of results/cpu.md's cells.
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
