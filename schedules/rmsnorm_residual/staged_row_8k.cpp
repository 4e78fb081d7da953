// staged_row_8k: one kernel, one row a block of 256 threads, the row read from DRAM once into
// shared memory in its storage type (16 bytes a thread a step) and cut into constant chunks of
// 8192 elements (rows_forms.h: Form::staged, Form::bucket): h = x + residual staged (read from x
// and residual once), the sum of h^2 reduced from it, then h and out stored from it. It holds
// rows of up to 192 KB (row_limit below; longer rows are refused in words): past 48 KB a block,
// fuselab's runtime raises the kernel's shared-memory limit at the launch, which Halide 21 never
// does (device.cpp: launch_kernel). staged_row_wide's form with half its threads, so that where
// a row takes 64 KB (float32 N = 16384) three blocks fit an SM by registers as well as by shared
// memory, and one block's loads overlap another's passes. Under the 40 KB limit it had (s16) it
// won at N = 16384 in the 16-bit types (bfloat16 3.79, float16 3.91 TB/s at the minimum bytes;
// results/runs/2026-12-03-h200-s16). Wins at 16-bit N = 16384 to 32768 (bfloat16 3.79, 3.71,
// 3.64; float16 3.89, 3.81, 3.72; Liger 4.01 at 16384); float32 16384 3.95 (staged_row_wide
// 3.99). Loses at 12288 (its last 8K chunk half empty: a guarded tail, float32 3.33) and at
// 65536 16-bit to staged_row_wide (bfloat16 2.71 against 3.03). H200 TB/s at the minimum bytes,
// results/runs/2026-12-03-h200-s17 (grid_summary.txt; copy 4.22).
// Rows that are not whole aligned vectors (s25, issue 30): with two outputs computed together, only
// the staging could put its threads over adjacent elements (softmax's and layernorm's forms do it
// for the output too). Tried, same call against 2aa169a's kernels
// (results/runs/2026-12-04-h200-s25/e1, odd_ab.py), geometric mean over the grid's unaligned rows:
// bfloat16 0.93x, float16 1.17x, float32 0.90x; not kept (Form::Never).
// Exact rows (s39, issue 30; Form::exact): rows of N = 8192, aligned, in kernels of their own with
// N a constant, so no mask, guard or division by N is left; on an H100 1.02 to 1.03x there
// (results/runs/2026-12-06-gpu-s39, g1/). 16384 gained nothing (0.98 to 1.01x): left out.
// targets: cuda
// row_limit: 196608 bytes
// summary: one row a block of 256 threads, the row staged once in shared memory up to 192 KB
#include "row_funcs.h"

namespace fuselab {

FUSELAB_SCHEDULE(RmsnormResidual, staged_row_8k) {
    rows::Form form;
    form.kind = rows::Form::Block, form.threads = 256, form.bucket = 8192, form.staged = true;
    form.adjacent = rows::Form::Never;  // its staging alone: slower (s25 e1/, odd_ab.py)
    form.staged_bytes = 196608;
    form.exact = 1;  // N = 8192 (s39 g1/)
    rows::gpu_rows(g, form, target);
}

}  // namespace fuselab
