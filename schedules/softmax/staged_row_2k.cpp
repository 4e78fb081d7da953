// staged_row_2k: one kernel, one row a block of 128 threads, the row read from DRAM once into
// shared memory in its storage type (16 bytes a thread a step) and cut into constant chunks of 2048
// elements (rows_forms.h: Form::staged, Form::bucket): the max and the sum of exp(x - max) reduced
// from the staged row, then the output from it. No intermediate in global memory, and the later
// passes read shared memory instead of L1/L2 (the unstaged forms' second and third reads). The
// cost: the row's bytes of shared memory a block (at most 40 KB of the 48 KB Halide 21 launches
// with), so fewer blocks an SM on long rows, and rows past 40960 bytes are refused in words
// (row_limit below; runtime: Variant::row_limit). Bets on N = 1000 to 4096. Found by the H200
// bucket search (gpu/bucket_search.sh; results/runs/2026-12-02-h200-s15/bucket_search, the JIT form
// block_t128_u0_o0_staged_b<next power of two of N>; copy 4.15 TB/s), TB/s at the minimum bytes:
// float32 N = 2048 3.59 (unstaged 3.68); bfloat16 N = 2048 2.11 (warp_row 3.03).
// targets: cuda
// row_limit: 40960 bytes
// summary: one row a block of 128 threads, the row staged once in shared memory, 2K-element chunks
#include "row_funcs.h"

namespace fuselab {

FUSELAB_SCHEDULE(Softmax, staged_row_2k) {
    rows::Form form;
    form.kind = rows::Form::Block, form.threads = 128, form.bucket = 2048, form.staged = true;
    rows::gpu_rows(g, form, target);
}

}  // namespace fuselab
