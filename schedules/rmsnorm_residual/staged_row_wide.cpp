// staged_row_wide: one kernel, one row a block of 512 threads, the row read from DRAM once into
// shared memory in its storage type (16 bytes a thread a step) and cut into constant chunks of
// 8192 elements (rows_forms.h: Form::staged, Form::bucket): h = x + residual staged (read from x
// and residual once, h stored beside the output), the sum of h^2 from it, then the output.
// Unlike staged_row_2k it holds rows of up to 192 KB (row_limit below; longer rows are refused
// in words): past 48 KB a block, fuselab's runtime raises the kernel's shared-memory limit at
// the launch, which Halide 21 never does (device.cpp: launch_kernel). So rows too long for
// staged_row_2k's 40 KB are read from DRAM once too, where block_row_wide reads them three times
// and counts on the L2 for two. The cost: one to four blocks an SM (the row's bytes of 228 KB),
// so the loads of one block's row overlap another's passes only where several fit. Wins at
// float32 N = 6144 and 16384 to 32768 (3.99, 3.97, 3.97: 0.94 of the copy; Liger 4.12 at 16384)
// and 16-bit 65536 (bfloat16 3.03 against torch_compile's 2.98; float16 3.53, 0.84 of the copy,
// against 3.02). H200 TB/s at the minimum bytes, results/runs/2026-12-03-h200-s17
// (grid_summary.txt; copy 4.22).
// Rows that are not whole aligned vectors (s25, issue 30): with two outputs computed together, only
// the staging could put its threads over adjacent elements (softmax's and layernorm's forms do it
// for the output too). Tried, same call against 2aa169a's kernels
// (results/runs/2026-12-04-h200-s25/e1, odd_ab.py), geometric mean over the grid's unaligned rows:
// bfloat16 0.96x, float16 1.07x, float32 0.92x; not kept (Form::Never).
// targets: cuda
// row_limit: 196608 bytes
// summary: one row a block of 512 threads, the row staged once in shared memory up to 192 KB
#include "row_funcs.h"

namespace fuselab {

FUSELAB_SCHEDULE(RmsnormResidual, staged_row_wide) {
    rows::Form form;
    form.kind = rows::Form::Block, form.threads = 512, form.bucket = 8192, form.staged = true;
    form.adjacent = rows::Form::Never;  // its staging alone: slower (s25 e1/, odd_ab.py)
    form.staged_bytes = 196608;
    rows::gpu_rows(g, form, target);
}

}  // namespace fuselab
