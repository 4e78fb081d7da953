// chunked_row: three kernels (generators/chunks.h, schedules/rows_chunked.h). The row cut into
// 16 KB chunks, one block of 128 threads a chunk: each chunk's sum of squares of h = x + residual,
// one float a chunk, to global memory, and h itself, written by the same blocks (compute_with);
// then a warp a row sums the partials into the row's rstd; then one block a chunk reads h back and
// writes the output. 5 row-bytes a row where the minimum is 4 (bound: 4/5 of the copy); s20's
// form wrote h beside the output, reading x and residual twice (6 row-bytes, 2/3): 2.74 TB/s in
// float32 where this form runs at 2.98 (0.71 of the copy). fuselab's fastest at float32
// N = 65536 to 262144 (block_row_wide 2.68 to 2.70; torch.compile 3.08 at 65536, 2.72 at
// 262144), and at the 16-bit N = 131072 to 262144 (bfloat16 2.60 to 2.62, float16 2.88 to 2.89;
// block_row_wide 2.56 to 2.61). Below N = 65536 the staged and block forms win (a row fits one
// SM); below 8192 a row is a handful of chunks or one: slow.
// H200 TB/s at the minimum bytes, results/runs/2026-12-03-h200-s21/a (copy 4.19).
// targets: cuda
// params: chunk_bytes=16384
// summary: the row cut into 16 KB chunks over blocks, partials through global memory (3 kernels)
#include "row_funcs.h"

namespace fuselab {

FUSELAB_SCHEDULE(RmsnormResidual, chunked_row) {
    rows::gpu_chunked_rows(g, 128, target);
}

}  // namespace fuselab
