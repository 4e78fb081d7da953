// chunked_row: three kernels (generators/chunks.h, schedules/rows_chunked.h). The row cut into
// 16 KB chunks, one block of 128 threads a chunk: each chunk's sum of squares of h = x + residual,
// one float a chunk, to global memory; then a warp a row sums them into the row's rstd; then one
// block a chunk reads x and residual again and writes h and the output. 6 row-bytes a row where
// the minimum is 4 (bound: 2/3 of the copy; writing h in the first kernel would make it 5, but h
// is an output, which Halide computes at the root, apart from the chunks' kernel). Wins by 1 to
// 2% over block_row_wide at float32 N = 65536 to 262144 (2.74 TB/s, 0.65 of the copy, against
// 2.68 to 2.70; torch.compile 3.08 at 65536 and 2.70 at 262144) and float16 N = 131072 to 262144
// (2.63 to 2.64); block_row_wide keeps bfloat16 (2.58 against 2.52), staged_row_wide the 16-bit
// N = 65536. Below N = 8192 a row is a handful of chunks or one: slow.
// H200 TB/s at the minimum bytes, results/runs/2026-12-03-h200-s20/c (copy 4.21).
// targets: cuda
// params: chunk_bytes=16384
// summary: the row cut into 16 KB chunks over blocks, partials through global memory (3 kernels)
#include "row_funcs.h"

namespace fuselab {

FUSELAB_SCHEDULE(RmsnormResidual, chunked_row) {
    rows::gpu_chunked_rows(g, 128, target);
}

}  // namespace fuselab
