// staged_row_8k: one kernel, one row a block of 256 threads, the row read from DRAM once into
// shared memory in its storage type (16 bytes a thread a step) and cut into constant chunks of
// 8192 elements (rows_forms.h: Form::staged, Form::bucket): the mean and the variance about it
// reduced from the staged row, then the output. It holds rows of up to 192 KB (row_limit below;
// longer rows are refused in words): past 48 KB a block, fuselab's runtime raises the kernel's
// shared-memory limit at the launch, which Halide 21 never does (device.cpp: launch_kernel).
// staged_row_wide's form with half its threads, so that where a row takes 64 KB (float32 N =
// 16384) three blocks fit an SM by registers as well as by shared memory, and one block's loads
// overlap another's passes. Wins at float32 N = 16384 (3.57: block_row_4k 3.10, Liger 3.73) and
// 24576 (3.15), and 16-bit 24576 and 32768 (bfloat16 2.45, 2.52; float16 2.86, 2.97). Loses at
// 12288 (its last 8K chunk half empty: a guarded tail, float32 1.95 against block_row's 3.31).
// The 16-bit rows stay issue-bound (staged_row_2k's profile, results/rows_ncu.md), at 0.58 to
// 0.70 of the copy. H200 TB/s at the minimum bytes, results/runs/2026-12-03-h200-s17
// (grid_summary.txt; copy 4.22).
// Padded (s24, issue 30; params row_pad, row_pad_unit; rows_forms.h: gpu_padded_block_rows): the
// statistics reduce over the row padded to 4096 or 8192 elements, longer rows to a multiple of
// 4096, past N re-reading the row's last 16-byte vector and masked by a select, so no step of a
// statistic is guarded; the output is specialized on each rung and cut by the vector first. Same
// call against the unpadded kernel (results/runs/2026-12-04-h200-s24/b, padded_ab.py), 1.87x (0.87
// to 5.63) over the pipeline's 288 grid, suite and unnamed cells: float32 N = 2920 3.10 TB/s
// against 1.55 unpadded, 4664 2.79 (2.25); bfloat16 4664 1.94 (1.04), 11936 1.78 (1.23). Rows whose
// starts are not 16-byte aligned still load element by element.
// Rows that are not whole aligned vectors (s25, issue 30; Form::adjacent, 16-bit): the staging and
// the output put the threads over adjacent elements (a warp's access 32 consecutive elements, not
// 32 a vector apart). Same call against 2aa169a's kernels (results/runs/2026-12-04-h200-s25/e1,
// odd_ab.py), geometric mean over the grid's unaligned rows: bfloat16 1.28x, float16 1.40x; float32
// 0.85x, so not there. Aligned rows' kernels are unchanged, byte for byte.
// Exact rows (s39, issue 30; Form::exact): rows of N = 4096, 8192 and 16384, aligned, in kernels of
// their own with N a constant, so no mask, guard or division by N is left; on an H100 1.02x at
// 4096, 1.09 to 1.29x at 8192, 1.01 to 1.03x at 16384 (results/runs/2026-12-06-gpu-s39, g1/).
// Longer rows not tried.
// targets: cuda
// params: row_pad=8192 row_pad_unit=4096
// row_limit: 196608 bytes
// summary: one row a block of 256 threads, the row staged once in shared memory up to 192 KB
#include "row_funcs.h"

namespace fuselab {

FUSELAB_SCHEDULE(Layernorm, staged_row_8k) {
    rows::Form form;
    form.kind = rows::Form::Block, form.threads = 256, form.bucket = 8192, form.staged = true;
    form.staged_bytes = 196608;
    form.exact = 4;  // N = 4096, 8192 and 16384 (s39 g1/)
    rows::gpu_rows(g, form, target);
}

}  // namespace fuselab
