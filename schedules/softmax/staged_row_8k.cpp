// staged_row_8k: one kernel, one row a block of 256 threads, the row read from DRAM once into
// shared memory in its storage type (16 bytes a thread a step) and cut into constant chunks of
// 8192 elements (rows_forms.h: Form::staged, Form::bucket): the max and the sum of exp(x - max)
// reduced from the staged row, then the output from it. It holds rows of up to 192 KB (row_limit
// below; longer rows are refused in words): past 48 KB a block, fuselab's runtime raises the
// kernel's shared-memory limit at the launch, which Halide 21 never does (device.cpp:
// launch_kernel). staged_row_wide's form with half its threads, so that where a row takes 64 KB
// (float32 N = 16384) three blocks fit an SM by registers as well as by shared memory, and one
// block's loads overlap another's passes. Wins at float32 N = 16384 (3.95, 0.94 of the copy:
// block_row_wide 3.22, Liger 4.00 in the same session) and 24576 (3.30), and bfloat16 32768
// (2.83). Loses where the last 8K chunk is partly empty: at 12288 its guarded tail runs an
// element at a time (float32 2.20 against block_row_4k's 3.26); and at 16-bit 65536 (128 KB a
// row) to staged_row_wide, which keeps more threads an SM busy (bfloat16 2.11 against 2.17).
// H200 TB/s at the minimum bytes, results/runs/2026-12-03-h200-s17 (grid_summary.txt; copy
// 4.22).
// targets: cuda
// row_limit: 196608 bytes
// summary: one row a block of 256 threads, the row staged once in shared memory up to 192 KB
#include "row_funcs.h"

namespace fuselab {

FUSELAB_SCHEDULE(Softmax, staged_row_8k) {
    rows::Form form;
    form.kind = rows::Form::Block, form.threads = 256, form.bucket = 8192, form.staged = true;
    form.staged_bytes = 196608;
    rows::gpu_rows(g, form, target);
}

}  // namespace fuselab
