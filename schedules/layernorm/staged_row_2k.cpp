// staged_row_2k: one kernel, one row a block of 128 threads, the row read from DRAM once into
// shared memory in its storage type (16 bytes a thread a step) and cut into constant chunks of 2048
// elements (rows_forms.h: Form::staged, Form::bucket): the sum and the sum of squares about the
// mean reduced from the staged row, then the output from it. No intermediate in global memory, and
// the later passes read shared memory instead of L1/L2 (the unstaged forms' second and third
// reads). The cost: the row's bytes of shared memory a block (up to 192 KB since s41; past 48 KB
// fuselab's runtime raises the kernel's limit at the launch), so fewer blocks an SM on long rows,
// and rows past 196608 bytes are refused in words (row_limit below; runtime: Variant::row_limit).
// Wins at N = 4096 to 16384: float32 N = 4096 3.81, 8192 3.80; bfloat16 8192 2.91, 16384 2.79;
// float16 4096 2.94, 8192 3.51, 16384 3.10. Loses at N <= 2048 (warp_regs_1k, warp_row,
// block_row_2k). H200 TB/s at the minimum bytes, results/runs/2026-12-03-h200-s16 (b/, summary.txt;
// copy 4.21). Found by the bucket search (gpu/bucket_search.sh;
// results/runs/2026-12-02-h200-s15/bucket_search).
// Rows that are not whole aligned vectors (s25, issue 30; Form::adjacent, every type): the staging
// and the output put the threads over adjacent elements (a warp's access 32 consecutive elements,
// not 32 a vector apart). Same call against 2aa169a's kernels (results/runs/2026-12-04-h200-s25/e1,
// odd_ab.py), geometric mean over the grid's unaligned rows: bfloat16 1.18x, float16 1.59x, float32
// 1.20x. Aligned rows' kernels are unchanged, byte for byte.
// Exact rows (s39, issue 30; Form::exact): rows of N = 2048 and 4096, aligned, in kernels of their
// own with N a constant, so no mask, guard or division by N is left; on an H100 1.35 and 1.33x at
// 2048 (bfloat16, float16; float32 1.11x), 1.00 to 1.03x at 4096 (results/runs/2026-12-06-gpu-s39,
// g1/). 8192 and 16384 lost (0.96 to 0.97x): left out.
// Aligned rows cut by the vector first (s40, issue 30; Form::by_vector): the output's and the
// staging's aligned kernels test each 16-byte vector's index once instead of each element, so no
// vector falls back to element-by-element loads and stores (the statistics' guards stay an
// element's). The exact kernels are unchanged. On an H100, against the same form without it, same
// call, at N = 768 to 12288 that no bucket divides (results/runs/2026-12-06-gpu-s40, g1/:
// hidden_table.md), geometric means float32 1.12x, bfloat16 1.15x, float16 1.14x (0.96x at 12288 to
// 1.39x at 768).
// Rows past 40 KB (s41, issue 30; Form::staged_bytes 192 KB, was 40 KB): on an H100
// (results/runs/2026-12-06-gpu-s41: e1/ and f1/, f1_table.txt), float32 12288 2.68 TB/s against
// block_row_4k's 2.63; at the other 18 float32 shapes of the H100's table from 11008 to 47968 it
// loses (0.63x to 1.00x; block_row_4k, staged_row_8k, chunked_row). Kept because the choice reads
// it by measurement, and rows within 40 KB run the same kernels as before.
// targets: cuda
// row_limit: 196608 bytes
// summary: one row a block of 128 threads, the row staged once in shared memory, 2K-element chunks
#include "row_funcs.h"

namespace fuselab {

FUSELAB_SCHEDULE(Layernorm, staged_row_2k) {
    rows::Form form;
    form.kind = rows::Form::Block, form.threads = 128, form.bucket = 2048, form.staged = true;
    form.adjacent = rows::Form::Always;  // float32 too (s25 e1/, odd_ab.py)
    form.staged_bytes = 196608;          // rows past 40 KB (s41 e1/)
    form.exact = 2;                      // N = 2048 and 4096 (s39 g1/)
    form.by_vector = true;               // aligned rows cut by the vector first (s40 g1/)
    rows::gpu_rows(g, form, target);
}

}  // namespace fuselab
