// block_row_2k: one kernel, one row a block of 128 threads, the row cut into constant chunks of
// 2048 elements (rows_forms.h: Form::bucket, rows_common.h: split_row): each thread takes 4 float32
// vectors of 16 bytes a chunk (2 of the 16-bit types), every step unrolled with its tail guard, and
// rows of at most 2048 elements are one chunk, where every loop of the row has a constant extent
// (the Halide form of Triton's power-of-two BLOCK_SIZE, which fuselab's run-time N otherwise
// hides). The sum, then the sum of squares about the mean, reduced inside the block, then the
// output. No intermediate in global memory: the row read from DRAM once, re-read from L1/L2. Longer
// rows loop over the chunks. Bets on N = 1000 to 2048. Found by the H200 bucket search
// (gpu/bucket_search.sh; results/runs/2026-12-02-h200-s15/bucket_search). Built and timed beside
// the other strategies and the peers there (bench/, summary.txt; copy 4.21 TB/s), TB/s at the
// minimum bytes: float32 N = 2048 3.11 (warp_row 2.95), 3072 2.11, 8192 3.34 (block_row 3.35). Not
// yet in the choice's measured shapes.
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
