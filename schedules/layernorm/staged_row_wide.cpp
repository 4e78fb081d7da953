// staged_row_wide: one kernel, one row a block of 512 threads, the row read from DRAM once into
// shared memory in its storage type (16 bytes a thread a step) and cut into constant chunks of
// 8192 elements (rows_forms.h: Form::staged, Form::bucket): the mean and the variance about it
// reduced from the staged row, then the output. Unlike staged_row_2k it holds rows of up to 192
// KB (row_limit below; longer rows are refused in words): past 48 KB a block, fuselab's runtime
// raises the kernel's shared-memory limit at the launch, which Halide 21 never does (device.cpp:
// launch_kernel). So rows too long for staged_row_2k's 40 KB are read from DRAM once too, where
// block_row_wide reads them three times and counts on the L2 for two. The cost: one to four
// blocks an SM (the row's bytes of 228 KB), so the loads of one block's row overlap another's
// passes only where several fit. Wins at float32 N = 32768 (3.14) and float16 65536 (2.39
// against torch_compile's 2.22); bfloat16 65536 ties block_row_wide (1.98). Loses at float32
// 16384 (2.82) to staged_row_8k, whose 256 threads fit three 64 KB rows an SM where its 512 fit
// one. H200 TB/s at the minimum bytes, results/runs/2026-12-03-h200-s17 (grid_summary.txt; copy
// 4.22).
// Rows that are not whole aligned vectors (s25, issue 30; Form::adjacent, every type): the staging
// and the output put the threads over adjacent elements (a warp's access 32 consecutive elements,
// not 32 a vector apart). Same call against 2aa169a's kernels (results/runs/2026-12-04-h200-s25/e1,
// odd_ab.py), geometric mean over the grid's unaligned rows: bfloat16 1.73x, float16 1.75x, float32
// 1.59x. Aligned rows' kernels are unchanged, byte for byte.
// Exact rows (s39, issue 30; Form::exact): rows of N = 8192 and 16384, aligned, in kernels of their
// own with N a constant, so no mask, guard or division by N is left; on an H100 1.28 and 1.29x at
// 8192 (bfloat16, float16; float32 1.25x), 1.12 to 1.47x at 16384 (results/runs/2026-12-06-gpu-s39,
// g4/). 32768 gained under 1%: left out.
// targets: cuda
// row_limit: 196608 bytes
// summary: one row a block of 512 threads, the row staged once in shared memory up to 192 KB
#include "row_funcs.h"

namespace fuselab {

FUSELAB_SCHEDULE(Layernorm, staged_row_wide) {
    rows::Form form;
    form.kind = rows::Form::Block, form.threads = 512, form.bucket = 8192, form.staged = true;
    form.adjacent = rows::Form::Always;  // float32 too (s25 e1/, odd_ab.py)
    form.staged_bytes = 196608;
    form.exact = 2;  // N = 8192 and 16384 (s39 g4/)
    rows::gpu_rows(g, form, target);
}

}  // namespace fuselab
