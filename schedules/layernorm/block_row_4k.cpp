// block_row_4k: one kernel, one row a block of 256 threads, the row cut into constant chunks of
// 4096 elements (rows_forms.h: Form::bucket, rows_common.h: split_row): each thread takes 4 float32
// vectors of 16 bytes a chunk (2 of the 16-bit types), every step unrolled with its tail guard, and
// rows of at most 4096 elements are one chunk, where every loop of the row has a constant extent
// (the Halide form of Triton's power-of-two BLOCK_SIZE, which fuselab's run-time N otherwise
// hides). The sum, then the sum of squares about the mean, reduced inside the block, then the
// output. No intermediate in global memory: the row read from DRAM once, re-read from L1/L2. Longer
// rows loop over the chunks. Bets on N = 2048 to 4096. Found by the H200 bucket search
// (gpu/bucket_search.sh; results/runs/2026-12-02-h200-s15/bucket_search). Built and timed beside
// the other strategies and the peers there (bench/, summary.txt; copy 4.21 TB/s), TB/s at the
// minimum bytes: float32 N = 2048 1.85, 3072 2.58 (warp_row 2.37), 8192 2.97 (block_row 3.35). Not
// yet in the choice's measured shapes.
// Padded (s24, issue 30; params row_pad, row_pad_unit; rows_forms.h: gpu_padded_block_rows): the
// statistics reduce over the row padded to 4096 or 8192 elements, longer rows to a multiple of
// 4096, past N re-reading the row's last 16-byte vector and masked by a select, so no step of a
// statistic is guarded; the output is specialized on each rung and cut by the vector first. Same
// call against the unpadded kernel (results/runs/2026-12-04-h200-s24/b, padded_ab.py), 1.41x (0.82
// to 3.48) over the pipeline's 288 grid, suite and unnamed cells: float32 N = 2920 3.72 TB/s
// against 2.27 unpadded, 11936 2.99 (2.27); bfloat16 2920 2.10 (1.03). Rows whose starts are not
// 16-byte aligned still load element by element.
// Rows that are not whole aligned vectors (s25, issue 30; Form::adjacent, every type): the output
// put the threads over adjacent elements (a warp's access 32 consecutive elements, not 32 a vector
// apart). Same call against 2aa169a's kernels (results/runs/2026-12-04-h200-s25/e1, odd_ab.py),
// geometric mean over the grid's unaligned rows: bfloat16 1.54x, float16 1.44x, float32 1.25x.
// Aligned rows' kernels are unchanged, byte for byte.
// s37 (H100; results/rows_ncu.md): at N = 4096 in bfloat16 it took 35 instructions an element
// (softmax's 27), its mask tested per element and its mean and 1 / std recomputed in each output
// step; tested a vector at once and computed once a thread, 824 -> 712 instructions in the
// kernel, 1.05x, 0.93 of the copy (results/runs/2026-12-06-gpu-s37, ab_rows_g3.txt, g4/).
// targets: cuda
// params: row_pad=8192 row_pad_unit=4096
// summary: one row a block of 256 threads, rows cut into constant 4096-element chunks
#include "row_funcs.h"

namespace fuselab {

FUSELAB_SCHEDULE(Layernorm, block_row_4k) {
    rows::Form form;
    form.kind = rows::Form::Block, form.threads = 256, form.bucket = 4096;
    form.adjacent = rows::Form::Always;  // float32 too (s25 e1/, odd_ab.py)
    rows::gpu_rows(g, form, target);
}

}  // namespace fuselab
