// chunked_row: three kernels (generators/chunks.h, schedules/rows_chunked.h). The row cut into
// 16 KB chunks, one block of 128 threads a chunk: each chunk's max and its sum of exp(x - max),
// 8 floats a row of 16 KB, to global memory; then a warp a row combines them into the row's max
// and 1 / sum; then one block a chunk streams the output from x read again. x is read twice from
// DRAM (bound: 2/3 of the copy), where block_row_wide's one block a row read it three times at
// 256 to 1024 busy blocks. For rows too long for one SM: it wins at float32 N = 65536 to 262144
// (2.62 TB/s, 0.62 of the copy; block_row_wide 2.05, torch.compile 2.63 and eager 2.00) and the
// 16-bit N = 131072 to 262144 (2.35, 0.56; eager 1.81). Its output kernel streams at 3.95 TB/s
// of DRAM and its chunks' kernel reads at 4.22 in float32 but at 3.37 in bfloat16, where 29% of
// the warps are active (each thread holds its 64 widened elements for both statistics): Nsight
// Compute, results/rows_ncu.md. Below N = 8192 a row is a handful of chunks or one: slow.
// H200 TB/s at the minimum bytes, results/runs/2026-12-03-h200-s20/c (copy 4.21).
// targets: cuda
// params: chunk_bytes=16384
// summary: the row cut into 16 KB chunks over blocks, partials through global memory (3 kernels)
#include "row_funcs.h"

namespace fuselab {

FUSELAB_SCHEDULE(Softmax, chunked_row) {
    rows::gpu_chunked_rows(g, 128, target);
}

}  // namespace fuselab
