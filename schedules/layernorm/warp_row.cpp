// warp_row: one kernel, one warp a row, 4 rows (128 threads) a block: the 32 lanes side by side
// over the row, 16 bytes a lane a step (16-bit types as 32-bit words: fuselab/wide_accesses.h),
// 2 vectors a lane in flight in the statistics' passes, 2 in the output's.
// The sum through shared memory, the sum of squares about the mean by warp shuffles (shfl.sync).
// No intermediate in global memory; the row read from DRAM once, then from L1. Specialized on
// N >= 32 V (every lane holds a whole vector), where the reductions' last steps lose their tail
// guards. Why these numbers: the H200 search (tools/row_search.cpp, results/rows_search.md) over
// 1, 2 and 4 vectors in flight and 2, 4, 8 and 16 rows a block. The profile (results/rows_ncu.md)
// of the earlier form (8 rows a block, 4 float32 vectors in flight) at N = 256: 57 to 91
// instructions an element, barrier and scoreboard stalls, 47% achieved occupancy in softmax
// float32, 22% in rmsnorm_residual float32 (120 registers); a form of 4 rows a block used 40
// registers there and reached 69%. Loses from N ~ 4096 on: a warp's row no longer stays in L1
// between the passes and the re-reads come from DRAM (3.0x the minimum read in softmax float32).
// Not timed in this form (4 rows a block, 2 output vectors): the search's layernorm cells reached
// only the 2-rows forms at N = 256 (float32: 2.90 TB/s with 2 output vectors, 2.57 with 1, against
// the 8-rows form's 1.44; results/rows_search.md). Correct on the H200 in every type
// (results/runs/2026-12-02-h200-s12/rows).
// targets: cuda
// summary: one warp a row, 4 rows a block; the sum via shared memory, the sum of squares by
// shuffles
#include "row_funcs.h"

namespace fuselab {

FUSELAB_SCHEDULE(Layernorm, warp_row) {
    rows::Form form;
    form.kind = rows::Form::Warp, form.rows = 4, form.steps = 2, form.out_steps = 2;
    rows::gpu_rows(g, form, target);
}

}  // namespace fuselab
