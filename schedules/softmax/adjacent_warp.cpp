// adjacent_warp: one kernel, one warp a row, 4 rows a block, for short rows that are not whole
// aligned 16-byte vectors (N not a multiple of 4 float32 or 8 16-bit elements). Such rows are
// loaded and stored element by element; warp_row keeps its lanes a vector apart there (lane l at
// elements 8l .. 8l + 7), so one 2-byte access of a warp spans 512 bytes. Here the lanes take
// adjacent elements in every pass (rows_forms.h: gpu_adjacent_warp_rows): the max, the sum and
// the output each read 32 consecutive elements a warp access. The max through shared memory, the
// sum by shuffles; the row read from DRAM once, then from L1 (as warp_row: the same bytes). One
// step a lane in the statistics: more gave wrong sums in 16-bit types on the H200 (s29 b/).
// H200, 2^25 elements a call, JIT search (results/runs/2026-12-05-h200-s29, a/ and b/), against
// the best shipped strategy of the same call: bfloat16 N = 257 92 us (warp_row 151), 1001 69
// (warp_regs_1k 106), 1417 62 (warp_row 113), 2100 61 (staged_row_2k 85); float32 257 90
// (warp_row 130), 1417 102 (block_row_2k 124). Loses from N ~ 4096 (staged_row_2k, which reads
// the row from shared memory) and on aligned rows (16-byte accesses).
// As built on the H200 (s33 b/, 2^23 and 2^25 elements, results/h200.json): the fastest at 26
// of the 210 shapes that time it, every one a row that is not whole vectors, N = 4 to 2265, 23
// of them 16-bit; by 1.20x over the next strategy at the median, up to 1.70x.
// targets: cuda
// summary: one warp a row, 4 rows a block, lanes over adjacent elements (unaligned short rows)
#include "row_funcs.h"

namespace fuselab {

FUSELAB_SCHEDULE(Softmax, adjacent_warp) {
    rows::Form form;
    form.kind = rows::Form::Warp, form.rows = 4, form.steps = 1, form.out_steps = 1;
    form.adjacent_out = true;
    rows::gpu_rows(g, form, target);
}

}  // namespace fuselab
