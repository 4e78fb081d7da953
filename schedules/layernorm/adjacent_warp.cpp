// adjacent_warp: one kernel, one warp a row, 4 rows a block, for short rows that are not whole
// aligned 16-byte vectors (N not a multiple of 4 float32 or 8 16-bit elements). Such rows are
// loaded and stored element by element; warp_row keeps its lanes a vector apart there, so one
// 2-byte access of a warp spans 512 bytes. Here the lanes take adjacent elements in every pass
// (rows_forms.h: gpu_adjacent_warp_rows): the sum through shared memory, the sum of squares
// about the mean by shuffles, the output. The row read from DRAM once, then from L1 (the same
// bytes as warp_row). One step a lane in the statistics: more gave wrong statistics in 16-bit
// types on the H200 (s29 b/).
// H200, 2^25 elements a call, JIT search (results/runs/2026-12-05-h200-s29, a/ and b/), against
// the best shipped strategy of the same call: bfloat16 N = 257 128 us (warp_row 217), 1417 75
// (127), 2100 68 (staged_row_2k 117); float16 2100 66 (114); float32 1417 93 (warp_row 120).
// Ties warp_regs_1k at 1001; loses from N ~ 4096 and at float32 2100 (warp_row).
// As built on the H200 (s33 b/, 2^23 and 2^25 elements, results/h200.json): the fastest at 26
// of the 210 shapes that time it, every one a row that is not whole vectors, N = 4 to 3775, 24
// of them 16-bit; by 1.22x over the next strategy at the median, up to 1.41x.
// targets: cuda
// summary: one warp a row, 4 rows a block, lanes over adjacent elements (unaligned short rows)
#include "row_funcs.h"

namespace fuselab {

FUSELAB_SCHEDULE(Layernorm, adjacent_warp) {
    rows::Form form;
    form.kind = rows::Form::Warp, form.rows = 4, form.steps = 1, form.out_steps = 1;
    form.adjacent_out = true;
    rows::gpu_rows(g, form, target);
}

}  // namespace fuselab
