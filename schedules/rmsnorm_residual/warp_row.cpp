// warp_row: one kernel, one warp a row, 4 rows (128 threads) a block: the 32 lanes side by side
// over the row, 16 bytes a lane a step (16-bit types as 32-bit words: fuselab/wide_accesses.h),
// 2 vectors a lane in flight in the statistics' passes, 1 in the output's. The sum of squares by warp shuffles; h stored
// beside out from the same loads. No
// intermediate in global memory; the row read from DRAM once, then from L1. Specialized on
// N >= 32 V (every lane holds a whole vector), where the reductions' last steps are unguarded.
// Why these numbers: the search on the H200 (tools/row_search.cpp, results/rows_search.md) timed
// 1, 2 and 4 vectors in flight and 2, 4 and 8 rows a block; 4 rows and 2 vectors were fastest or
// within 6% at N = 256 to 2048. The profile (results/rows_ncu.md) of the earlier form (8 rows a
// block, 4 float32 vectors in flight) at N = 256: 70 to 90 instructions an element and barrier
// and scoreboard stalls; 4 rows a block took the registers from 64 to 40 (softmax float32) and
// the achieved occupancy from 47% to 69%. Loses past N ~ 4096: a warp's row no longer stays in
// L1 between the passes, and the re-reads come from DRAM (3x the minimum read at N = 4096).
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
