// staged_row_2k: one kernel, one row a block of 128 threads, the row read from DRAM once into
// shared memory in its storage type (16 bytes a thread a step) and cut into constant chunks of 2048
// elements (rows_forms.h: Form::staged, Form::bucket): h = x + residual staged (read from x and
// residual once), the sum of h^2 reduced from it, then h and out stored from it. No intermediate in
// global memory, and the later passes read shared memory instead of L1/L2 (the unstaged forms'
// second and third reads). The cost: the row's bytes of shared memory a block (at most 40 KB of the
// 48 KB Halide 21 launches with), so fewer blocks an SM on long rows, and rows past 40960 bytes are
// refused in words (row_limit below; runtime: Variant::row_limit). Wins at N = 1000 to 8192:
// float32 N = 1000 4.06, 1024 4.11, 2048 4.09, 4096 4.06 (Liger 4.05 in the same call); bfloat16
// 2048 3.74, 4096 3.95, 8192 3.93; float16 2048 4.02, 4096 3.98. Loses at N <= 512 (warp_regs_1k,
// warp_row) and past 10240 float32 elements, which it refuses. H200 TB/s at the minimum bytes,
// results/runs/2026-12-03-h200-s16 (b/, summary.txt; copy 4.21). Found by the bucket search
// (gpu/bucket_search.sh; results/runs/2026-12-02-h200-s15/bucket_search).
// Rows that are not whole aligned vectors (s25, issue 30): with two outputs computed together, only
// the staging could put its threads over adjacent elements (softmax's and layernorm's forms do it
// for the output too). Tried, same call against 2aa169a's kernels
// (results/runs/2026-12-04-h200-s25/e1, odd_ab.py), geometric mean over the grid's unaligned rows:
// bfloat16 0.91x, float16 1.12x, float32 0.69x; not kept (Form::Never). Such rows have their own
// strategies since s28, with out and h over adjacent elements: adjacent_row, adjacent_staged_2k.
// targets: cuda
// row_limit: 40960 bytes
// summary: one row a block of 128 threads, the row staged once in shared memory, 2K-element chunks
#include "row_funcs.h"

namespace fuselab {

FUSELAB_SCHEDULE(RmsnormResidual, staged_row_2k) {
    rows::Form form;
    form.kind = rows::Form::Block, form.threads = 128, form.bucket = 2048, form.staged = true;
    form.adjacent = rows::Form::Never;  // its staging alone: slower (s25 e1/, odd_ab.py)
    rows::gpu_rows(g, form, target);
}

}  // namespace fuselab
