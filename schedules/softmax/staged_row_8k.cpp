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
// Padded (s24, issue 30; params row_pad, row_pad_unit; rows_forms.h: gpu_padded_block_rows): the
// statistics reduce over the row padded to 4096 or 8192 elements, longer rows to a multiple of
// 4096, past N re-reading the row's last 16-byte vector and masked by a select, so no step of a
// statistic is guarded; the output is specialized on each rung and cut by the vector first. Same
// call against the unpadded kernel (results/runs/2026-12-04-h200-s24/b, padded_ab.py), 1.71x (0.87
// to 3.79) over the pipeline's 288 grid, suite and unnamed cells: float32 N = 2920 3.30 TB/s
// against 2.10 unpadded, 4664 3.18 (2.82); bfloat16 2920 2.13 (0.96), 11936 2.13 (1.39). Rows whose
// starts are not 16-byte aligned still load element by element.
// Rows that are not whole aligned vectors (s25, issue 30; Form::adjacent, 16-bit): the staging and
// the output put the threads over adjacent elements (a warp's access 32 consecutive elements, not
// 32 a vector apart). Same call against 2aa169a's kernels (results/runs/2026-12-04-h200-s25/e1,
// odd_ab.py), geometric mean over the grid's unaligned rows: bfloat16 1.30x, float16 1.16x; float32
// 0.96x, so not there. Aligned rows' kernels are unchanged, byte for byte.
// Exact rows (s39, issue 30; Form::exact): rows of N = 4096 and 8192, aligned, in kernels of their
// own with N a constant, so no mask, guard or division by N is left; on an H100 1.02 to 1.06x at
// 4096, 1.02 to 1.07x at 8192 (results/runs/2026-12-06-gpu-s39, g1/). 16384 gained nothing (0.99 to
// 1.00x): left out.
// targets: cuda
// params: row_pad=8192 row_pad_unit=4096
// row_limit: 196608 bytes
// summary: one row a block of 256 threads, the row staged once in shared memory up to 192 KB
#include "row_funcs.h"

namespace fuselab {

FUSELAB_SCHEDULE(Softmax, staged_row_8k) {
    rows::Form form;
    form.kind = rows::Form::Block, form.threads = 256, form.bucket = 8192, form.staged = true;
    form.staged_bytes = 196608;
    form.exact = 2;  // N = 4096 and 8192 (s39 g1/)
    rows::gpu_rows(g, form, target);
}

}  // namespace fuselab
