// chunked_row: three kernels (generators/chunks.h, schedules/rows_chunked.h). The row cut into
// 16 KB chunks, one block of 128 threads a chunk: each chunk's mean (about its first element) and
// its sum of squares about that mean, two floats a chunk, to global memory; then a warp a row
// combines them by Chan's formula into the row's mean and rstd; then one block a chunk streams
// the output from x read again. x is read twice from DRAM (bound: 2/3 of the copy), where
// block_row_wide read it three times at 256 to 1024 busy blocks. For rows too long for one SM:
// it wins at float32 and bfloat16 N = 65536 to 262144 (float32 2.59 to 2.63 TB/s, 0.61 to 0.62
// of the copy, torch.compile 2.58 and 2.22; bfloat16 2.17 to 2.21, 0.52, torch.compile 2.14 and
// 1.59) and float16 from 131072 (2.16; staged_row_wide keeps float16 N = 65536, 2.42).
// The per-element cost is rows_ncu.md's softmax's (the same kernels' shapes). Below N = 8192 a
// row is a handful of chunks or one: slow. H200 TB/s at the minimum bytes,
// results/runs/2026-12-03-h200-s20/c (copy 4.21).
// targets: cuda
// params: chunk_bytes=16384
// summary: the row cut into 16 KB chunks over blocks, partials through global memory (3 kernels)
#include "row_funcs.h"

namespace fuselab {

FUSELAB_SCHEDULE(Layernorm, chunked_row) {
    rows::gpu_chunked_rows(g, 128, target);
}

}  // namespace fuselab
