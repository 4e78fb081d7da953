// staged_row_wide: one kernel, one row a block of 512 threads, the row read from DRAM once into
// shared memory in its storage type (16 bytes a thread a step) and cut into constant chunks of
// 8192 elements (rows_forms.h: Form::staged, Form::bucket): the max and the sum of exp(x - max)
// reduced from the staged row, then the output from it. Unlike staged_row_2k it holds rows of up
// to 192 KB (row_limit below; longer rows are refused in words): past 48 KB a block, fuselab's
// runtime raises the kernel's shared-memory limit at the launch, which Halide 21 never does
// (device.cpp: launch_kernel). So rows too long for staged_row_2k's 40 KB are read from DRAM
// once too, where block_row_wide reads them three times and counts on the L2 for two. The cost:
// one to four blocks an SM (the row's bytes of 228 KB), so the loads of one block's row overlap
// another's passes only where several fit. Wins at the 16-bit N = 24576 to 65536 (float16 65536
// 2.56 against Liger's 2.24; bfloat16 2.17 against 2.45) and float32 32768 (3.09). At float32
// 16384 (64 KB a row) its 512 threads of 81 registers fit one block an SM, so one block's loads
// never overlap another's passes: 2.77, where staged_row_8k's 256 threads fit three blocks and
// run 3.95. H200 TB/s at the minimum bytes, results/runs/2026-12-03-h200-s17 (grid_summary.txt;
// copy 4.22).
// Rows that are not whole aligned vectors (s25, issue 30; Form::adjacent, every type): the staging
// and the output put the threads over adjacent elements (a warp's access 32 consecutive elements,
// not 32 a vector apart). Same call against 2aa169a's kernels (results/runs/2026-12-04-h200-s25/e1,
// odd_ab.py), geometric mean over the grid's unaligned rows: bfloat16 1.47x, float16 1.40x, float32
// 1.09x. Aligned rows' kernels are unchanged, byte for byte.
// Exact rows (s39, issue 30; Form::exact): rows of N = 8192 and 16384, aligned, in kernels of their
// own with N a constant, so no mask, guard or division by N is left; on an H100 1.08 to 1.35x at
// 8192, 1.01 to 1.14x at 16384 (results/runs/2026-12-06-gpu-s39, g1/). 32768 and 65536 lost (0.81
// to 0.98x): left out.
// Aligned rows cut by the vector first (s40, issue 30; Form::by_vector): the output's and the
// staging's aligned kernels test each 16-byte vector's index once instead of each element, so no
// vector falls back to element-by-element loads and stores (the statistics' guards stay an
// element's). The exact kernels are unchanged. On an H100, against the same form without it, same
// call, at N = 768 to 12288 that no bucket divides (results/runs/2026-12-06-gpu-s40, g1/:
// hidden_table.md), geometric means float32 1.11x, bfloat16 1.28x, float16 1.20x (0.99x at 12288 to
// 1.58x at 768).
// targets: cuda
// row_limit: 196608 bytes
// summary: one row a block of 512 threads, the row staged once in shared memory up to 192 KB
#include "row_funcs.h"

namespace fuselab {

FUSELAB_SCHEDULE(Softmax, staged_row_wide) {
    rows::Form form;
    form.kind = rows::Form::Block, form.threads = 512, form.bucket = 8192, form.staged = true;
    form.adjacent = rows::Form::Always;  // float32 too (s25 e1/, odd_ab.py)
    form.staged_bytes = 196608;
    form.exact = 2;         // N = 8192 and 16384 (s39 g1/)
    form.by_vector = true;  // aligned rows cut by the vector first (s40 g1/)
    rows::gpu_rows(g, form, target);
}

}  // namespace fuselab
