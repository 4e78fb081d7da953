// staged_keep_2k: staged_row_2k's one kernel (one row a block of 128 threads, the row read from
// DRAM once into shared memory, 2K-element chunks) that also keeps exp(x - max) in shared memory as
// float32, computed once an element (rows_forms.h: Form::keep): the last statistic and the output
// read it there, so the output pass only scales and narrows it. The cost: 4 more bytes of shared
// memory an element (a float32 row takes 64 KB at N = 8192, so fewer blocks an SM), and rows of
// at most 32 KB (row_limit; past 48 KB a block, fuselab's runtime raises the kernel's limit).
// Bets on the 16-bit rows at N = 4096 to 16384, which staged_row_2k leaves issue-bound
// (results/rows_ncu.md). Not measured yet.
// targets: cuda
// row_limit: 32768 bytes
// summary: one row a block of 128 threads, the row and exp(x - max) in shared memory
#include "row_funcs.h"

namespace fuselab {

FUSELAB_SCHEDULE(Softmax, staged_keep_2k) {
    rows::Form form;
    form.kind = rows::Form::Block, form.threads = 128, form.bucket = 2048, form.staged = true;
    form.keep = true, form.staged_bytes = 98304;
    rows::gpu_rows(g, form, target);
}

}  // namespace fuselab
