// adjacent_warp: one kernel, one warp a row, 4 rows a block, for short rows that are not whole
// aligned 16-byte vectors (N not a multiple of 4 float32 or 8 16-bit elements). Such rows are
// loaded and stored element by element; warp_row keeps its lanes a vector apart there, so one
// 2-byte access of a warp spans 512 bytes, and adjacent_row puts only its outputs over adjacent
// threads, 128 a row. Here the lanes take adjacent elements in every pass (rows_forms.h:
// gpu_adjacent_warp_rows): the sum of h^2 by shuffles, then out and h, written together. x and
// residual read from DRAM once, then from L1 (the same bytes as warp_row). One step a lane in
// the statistic: more gave wrong statistics in 16-bit types on the H200 (s29 b/).
// H200, 2^25 elements a call, JIT search (results/runs/2026-12-05-h200-s29, a/ and b/), against
// the best shipped strategy of the same call: bfloat16 N = 257 111 us (warp_row 194), 1001 104
// (adjacent_row 159), 1417 109 (136); float16 1417 104 (128); float32 257 138 (warp_row 160).
// Loses from N ~ 2048 in 16-bit (adjacent_staged_2k) and at 1001 to 5989 in float32.
// As built on the H200 (s33 b/, 2^23 and 2^25 elements, results/h200.json): the fastest at 47
// of the 195 shapes that time it, N = 4 to 1417 (29 rows that are not whole vectors, 18 short
// ones that are); by 1.44x over the next strategy at the median, up to 2.77x.
// targets: cuda
// summary: one warp a row, 4 rows a block, lanes over adjacent elements (unaligned short rows)
#include "row_funcs.h"

namespace fuselab {

FUSELAB_SCHEDULE(RmsnormResidual, adjacent_warp) {
    rows::Form form;
    form.kind = rows::Form::Warp, form.rows = 4, form.steps = 1, form.out_steps = 1;
    form.adjacent_out = true;
    rows::gpu_rows(g, form, target);
}

}  // namespace fuselab
