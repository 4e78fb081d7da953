// staged_row_2k: one kernel, one row a block of 128 threads, the row read from DRAM once into
// shared memory in its storage type (16 bytes a thread a step) and cut into constant chunks of 2048
// elements (rows_forms.h: Form::staged, Form::bucket): the max and the sum of exp(x - max) reduced
// from the staged row, then the output from it. No intermediate in global memory, and the later
// passes read shared memory instead of L1/L2 (the unstaged forms' second and third reads). The
// cost: the row's bytes of shared memory a block (up to 192 KB since s41; past 48 KB fuselab's
// runtime raises the kernel's limit at the launch), so fewer blocks an SM on long rows, and rows
// past 196608 bytes are refused in words (row_limit below; runtime: Variant::row_limit). Wins at N
// = 4096 to 16384 in the 16-bit types and at 4096 in float32 (H200 TB/s at the minimum bytes,
// results/runs/2026-12-03-h200-s19, grid_summary.txt; copy 4.18): float32 N = 4096 3.97 (Liger 3.94
// in the same session), bfloat16 4096 3.56 (Liger 3.76), 8192 3.71, 16384 3.29, float16 4096 3.78,
// 8192 3.74. bfloat16 there runs 28 instructions an element (35 before its widening as words and
// its NaN test once a row, s19; results/rows_ncu.md). Loses at N <= 2048 (one 128-thread block a
// row leaves short rows' loads few: bfloat16 1.22 at N = 1024 against warp_regs_1k's 3.82). Found
// by the bucket search (gpu/bucket_search.sh; results/runs/2026-12-02-h200-s15/bucket_search).
// Rows that are not whole aligned vectors (s25, issue 30; Form::adjacent, 16-bit): the staging and
// the output put the threads over adjacent elements (a warp's access 32 consecutive elements, not
// 32 a vector apart). Same call against 2aa169a's kernels (results/runs/2026-12-04-h200-s25/e1,
// odd_ab.py), geometric mean over the grid's unaligned rows: bfloat16 1.32x, float16 1.35x; float32
// 0.90x, so not there. Aligned rows' kernels are unchanged, byte for byte.
// Exact rows (s39, issue 30; Form::exact): rows of N = 2048, aligned, in kernels of their own with
// N a constant, so no mask, guard or division by N is left; on an H100 1.16 and 1.13x there
// (bfloat16, float16; float32 1.03x) (results/runs/2026-12-06-gpu-s39, g1/). 4096 to 16384 lost
// (0.95 to 0.99x): left out.
// Aligned rows cut by the vector first (s40, issue 30; Form::by_vector): the output's and the
// staging's aligned kernels test each 16-byte vector's index once instead of each element, so no
// vector falls back to element-by-element loads and stores (bfloat16's kernel for rows up to 2048:
// 1312 -> 960 instructions; the statistics' guards stay an element's). The exact kernels are
// unchanged. On an H100, against the same form without it, same call, at N = 768 to 12288 that no
// bucket divides (results/runs/2026-12-06-gpu-s40, g1/: hidden_table.md), geometric means float32
// 1.05x, bfloat16 1.08x, float16 1.06x (0.97x at 4000, 1.34x at 768).
// Rows past 40 KB (s41, issue 30; Form::staged_bytes 192 KB, was 40 KB): float32 rows from 10240 to
// 20480 elements, where the 40 KB forms stopped and staged_row_8k's last chunk runs part empty, ran
// 0.74 to 0.80 of the copy (block_row_wide, staged_row_8k). On an H100
// (results/runs/2026-12-06-gpu-s41: e1/, e1_table.txt, an experimental copy beside the peers; f1/,
// f1_table.txt, this build at the H100 table's shapes), this form there: 11008 2.85 TB/s against
// 2.23, 12288 2.91 (2.35), 14336 2.88 (2.26), 20480 2.77 (2.40), 0.92 to 0.97 of the copy; Liger
// 2.93 and 2.95 at 11008 and 12288. Ahead at 6 of the table's 7 shapes from 11008 to 14701 (1.04x
// to 1.29x, unaligned rows among them; 0.91x at 11936x703), behind at the table's shapes from 16384
// up (0.75x to 0.98x; e1's 20480x3277 the exception). Rows within 40 KB run the same kernels as
// before.
// targets: cuda
// row_limit: 196608 bytes
// summary: one row a block of 128 threads, the row staged once in shared memory, 2K-element chunks
#include "row_funcs.h"

namespace fuselab {

FUSELAB_SCHEDULE(Softmax, staged_row_2k) {
    rows::Form form;
    form.kind = rows::Form::Block, form.threads = 128, form.bucket = 2048, form.staged = true;
    form.staged_bytes = 196608;  // rows past 40 KB (s41 e1/)
    form.exact = 1;              // N = 2048 (s39 g1/)
    form.by_vector = true;       // aligned rows cut by the vector first (s40 g1/)
    rows::gpu_rows(g, form, target);
}

}  // namespace fuselab
