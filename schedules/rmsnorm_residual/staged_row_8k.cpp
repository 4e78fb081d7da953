// staged_row_8k: one kernel, one row a block of 256 threads, the row read from DRAM once into
// shared memory in its storage type (16 bytes a thread a step) and cut into constant chunks of 8192
// elements (rows_forms.h: Form::staged, Form::bucket): h = x + residual staged (read from x and
// residual once), the sum of h^2 reduced from it, then h and out stored from it. No intermediate in
// global memory, and the later passes read shared memory instead of L1/L2 (the unstaged forms'
// second and third reads). The cost: the row's bytes of shared memory a block (at most 40 KB of the
// 48 KB Halide 21 launches with), so fewer blocks an SM on long rows, and rows past 40960 bytes are
// refused in words (row_limit below; runtime: Variant::row_limit). Wins at N = 16384 in the 16-bit
// types (bfloat16 3.79, float16 3.91) and at float32 3072 (4.06); float32 16384 is past its limit
// (block_row_wide 3.59). H200 TB/s at the minimum bytes, results/runs/2026-12-03-h200-s16 (b/,
// summary.txt; copy 4.21). Found by the bucket search (gpu/bucket_search.sh;
// results/runs/2026-12-02-h200-s15/bucket_search).
// targets: cuda
// row_limit: 40960 bytes
// summary: one row a block of 256 threads, the row staged once in shared memory, 8K-element chunks
#include "row_funcs.h"

namespace fuselab {

FUSELAB_SCHEDULE(RmsnormResidual, staged_row_8k) {
    rows::Form form;
    form.kind = rows::Form::Block, form.threads = 256, form.bucket = 8192, form.staged = true;
    rows::gpu_rows(g, form, target);
}

}  // namespace fuselab
