// chunked_row: two kernels (generators/chunks.h, schedules/rows_chunked.h): the row cut into 16 KB
// chunks, one block of 256 threads a chunk, each chunk reduced to partials in global memory; then
// one block a chunk of the output, which combines its row's partials and reads its chunk again.
// For rows too long for one multiprocessor. Not yet measured.
// targets: cuda
// params: chunk_bytes=16384
// summary: the row cut into 16 KB chunks over blocks, partials through global memory (2 kernels)
#include "row_funcs.h"

namespace fuselab {

FUSELAB_SCHEDULE(Layernorm, chunked_row) {
    rows::gpu_chunked_rows(g, 128, target);
}

}  // namespace fuselab
