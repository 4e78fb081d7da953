// block_row_2k: one kernel, one row a block of 128 threads, the row cut into constant chunks of
// 2048 elements (rows_forms.h: Form::bucket, rows_common.h: split_row): each thread takes 4 float32
// vectors of 16 bytes a chunk (2 of the 16-bit types), every step unrolled with its tail guard, and
// rows of at most 2048 elements are one chunk, where every loop of the row has a constant extent
// (the Halide form of Triton's power-of-two BLOCK_SIZE, which fuselab's run-time N otherwise
// hides). The sum, then the sum of squares about the mean, reduced inside the block, then the
// output. No intermediate in global memory: the row read from DRAM once, re-read from L1/L2. Longer
// rows loop over the chunks. Bets on N = 1000 to 2048. Why: the H200 bucket search
// (tools/row_search.cpp, gpu/bucket_search.sh; results/runs/2026-12-02-h200-s15/bucket_search; copy
// 4.15 TB/s), TB/s at the minimum bytes, this form at its bucket: float32 N = 1000 2.83, 2048 3.17
// (warp_row 3.00). Built and timed beside the other strategies and the peers on 2026-12-02
// (results/runs/2026-12-02-h200-s15/summary.txt), the fastest strategy of most cells at N = 2048 to
// 8192; not yet in the choice's measured shapes.
// targets: cuda
// summary: one row a block of 128 threads, rows cut into constant 2048-element chunks
#include "row_funcs.h"

namespace fuselab {

FUSELAB_SCHEDULE(Layernorm, block_row_2k) {
    rows::Form form;
    form.kind = rows::Form::Block, form.threads = 128, form.bucket = 2048;
    rows::gpu_rows(g, form, target);
}

}  // namespace fuselab
