// staged_row_4k: one kernel, one row a block of 128 threads, the row read from DRAM once into
// shared memory in its storage type and cut into constant chunks of 4096 elements (8 KB, as
// staged_row_2k's 2048 float32 elements; rows_forms.h: Form::staged, Form::bucket): the sum, then
// the sum of squares about the mean, reduced from the staged row, then the output from it. The
// 16-bit types only (float32's 4096-element chunk is 16 KB; staged_row_2k cuts float32 rows by 8 KB
// already). Every pass over the staged row takes 4 vectors of 16 bytes a thread a chunk, where
// staged_row_2k's 2048-element chunk gives a 16-bit thread 2. Wins at N = 16384: on the H200 1.10x
// staged_row_2k in bfloat16 (3.31 TB/s, 0.79 of the copy; torch.compile 3.66) and 1.09x
// staged_row_8k in float16 (3.42), on an H100 1.06x and 1.04x staged_row_8k (2.69 and 2.74 TB/s),
// and 1.01 to 1.02x staged_row_2k there at 8192 and 12288 (results/runs/2026-12-06-gpu-s38, g4/,
// and g1/ and g2/ as x2k_b4). Loses below 8192, where the chunk is mostly past the row's end and
// its steps guarded one by one (0.54 to 0.85x at N = 2048 to 6144). Rows of at most 40 KB (20480
// elements). Nsight Compute at bfloat16 16384 on the H200 (results/rows_ncu.md, s38): DRAM read
// once, 23 instructions an element against staged_row_8k's 29 and 1.26 M shared-memory wavefronts
// against 2.08 M, at 26% occupancy (96 registers) against 33%: fewer, wider passes over the staged
// row outweigh the occupancy.
// Exact rows (s39, issue 30; Form::exact): rows of N = 4096 and 8192, aligned, in kernels of their
// own with N a constant, so no mask, guard or division by N is left; on an H100 1.22 and 1.21x at
// 4096, 1.00x at 8192 (results/runs/2026-12-06-gpu-s39, g1/). 16384 lost (0.95x): left out.
// Aligned rows cut by the vector first (s40, issue 30; Form::by_vector): the output's and the
// staging's aligned kernels test each 16-byte vector's index once instead of each element, so no
// vector falls back to element-by-element loads and stores (the statistics' guards stay an
// element's). The exact kernels are unchanged. On an H100, against the same form without it, same
// call, at N = 768 to 12288 that no bucket divides (results/runs/2026-12-06-gpu-s40, g1/:
// hidden_table.md), geometric means bfloat16 1.32x, float16 1.28x (1.00x at 12288 to 1.96x at 768).
// targets: cuda
// dtypes: bfloat16 float16
// row_limit: 40960 bytes
// summary: one row a block of 128 threads, the row staged once in shared memory, 4K-element chunks
#include "row_funcs.h"

namespace fuselab {

FUSELAB_SCHEDULE(Layernorm, staged_row_4k) {
    rows::Form form;
    form.kind = rows::Form::Block, form.threads = 128, form.bucket = 4096, form.staged = true;
    form.adjacent = rows::Form::Always;  // as staged_row_2k (s25 e1/, odd_ab.py)
    form.exact = 2;                      // N = 4096 and 8192 (s39 g1/)
    form.by_vector = true;               // aligned rows cut by the vector first (s40 g1/)
    rows::gpu_rows(g, form, target);
}

}  // namespace fuselab
