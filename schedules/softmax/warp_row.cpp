// warp_row: one kernel, one warp a row, 4 rows (128 threads) a block: the 32 lanes side by side
// over the row, 16 bytes a lane a step (16-bit types as 32-bit words: fuselab/wide_accesses.h),
// 2 vectors a lane in flight in the statistics' passes, 1 in the output's.
// The max through shared memory (each lane's partial, then one thread a row over the 32), the
// sum by warp shuffles (shfl.sync).
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
// best at none of softmax's 18 row cells (results/h200.md, s38's records). It has no CPU
// form (targets: cuda), so none of results/cpu.md's cells.
// float16 on rows that are not whole aligned vectors (s26): both conversions through the bits
// (params: half_route=aligned: s25's kernels, byte for byte), where the other strategies convert
// by the hardware (storage.h). By the hardware here, against s25's kernels in the same call: 1.19
// to 1.60x at N = 221 to 901 (where warp_regs_1k is faster still) but 0.78 to 0.97x at 2265 to
// 14701, widening alone by it (results/runs/2026-12-04-h200-s26/m); 0.71x at worst with the
// rounding by it too (k/, half_ab.py).
// targets: cuda
// params: half_route=aligned
// summary: one warp a row, 4 rows a block; the sum by warp shuffles, the max through shared memory
#include "row_funcs.h"

namespace fuselab {

FUSELAB_SCHEDULE(Softmax, warp_row) {
    rows::Form form;
    form.kind = rows::Form::Warp, form.rows = 4, form.steps = 2, form.out_steps = 1;
    rows::gpu_rows(g, form, target);
}

}  // namespace fuselab
