// staged_keep_8k: staged_row_8k's one kernel (one row a block of 256 threads, the row read from
// DRAM once into shared memory, 8K-element chunks) that also keeps x less the mean in shared memory
// as float32 (rows_forms.h: Form::keep), as staged_keep_2k does, for rows of up to 64 KB
// (row_limit; up to 192 KB of shared memory a block). Bets on the 16-bit rows at N = 16384 to
// 32768. Not measured yet.
// targets: cuda
// row_limit: 65536 bytes
// summary: one row a block of 256 threads, the row and x less the mean in shared memory
#include "row_funcs.h"

namespace fuselab {

FUSELAB_SCHEDULE(Layernorm, staged_keep_8k) {
    rows::Form form;
    form.kind = rows::Form::Block, form.threads = 256, form.bucket = 8192, form.staged = true;
    form.keep = true, form.staged_bytes = 196608;
    rows::gpu_rows(g, form, target);
}

}  // namespace fuselab
