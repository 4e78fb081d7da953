// adjacent_staged_2k: adjacent_row's outputs (128 threads over adjacent elements on every row,
// for rows that are not whole aligned 16-byte vectors) with staged_row_2k's row: h = x + residual
// staged once in shared memory, copied by adjacent threads where rows are not aligned, and its
// statistic cut into constant 2048-element chunks. x and residual are read from DRAM once, and
// the sum and the outputs read shared memory, not L1/L2. The cost: the row's bytes of shared
// memory a block (at most 40 KB), so rows past 40960 bytes are refused (row_limit below).
// H200, 2^25 elements a call, against the best shipped strategy of the same call
// (results/runs/2026-12-05-h200-s28/a): bfloat16 N = 2100 94 us (staged_row_2k 212), 4099 90,
// 12345 119; float16 4099 96, 12345 109; float32 4099 155 (block_row_2k 169). On aligned rows
// within 1 to 4% of staged_row_2k (bfloat16 4096 70.9 against 70.0 us). Nsight Compute (d/):
// float16 at N = 1417 takes 82 registers (30% of warps active, long-scoreboard stalls 12 cycles an
// instruction), bfloat16 56: float16's guarded conversions of unaligned rows; adjacent_row wins
// there.
// targets: cuda
// row_limit: 40960 bytes
// summary: the row staged once in shared memory, 2K-element chunks, out and h by adjacent threads
#include "row_funcs.h"

namespace fuselab {

FUSELAB_SCHEDULE(RmsnormResidual, adjacent_staged_2k) {
    rows::Form form;
    form.kind = rows::Form::Block, form.threads = 128, form.bucket = 2048, form.staged = true;
    form.adjacent_out = true;
    rows::gpu_rows(g, form, target);
}

}  // namespace fuselab
