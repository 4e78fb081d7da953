// staged_row_16k: one kernel, one row a block of 512 threads, h = x + residual staged once in
// shared memory in its storage type (read from x and residual once, h stored beside the output) and
// cut into constant chunks of 16384 elements (32 KB, as staged_row_wide's 8192 float32 elements;
// rows_forms.h: Form::staged, Form::bucket): the sum of h^2 from it, then the output. The 16-bit
// types only (float32's 16384-element chunk is 64 KB; staged_row_wide cuts float32 rows by 32 KB
// already). Every pass over the staged row takes 4 vectors of 16 bytes a thread a chunk, where
// staged_row_wide's 8192-element chunk gives a 16-bit thread 2. Wins at N = 65536: on the H200
// 1.10x staged_row_wide in bfloat16 (3.49 TB/s, 0.83 of the copy; torch.compile 3.01) and 1.01x in
// float16 (3.60, 0.86), on an H100 1.09x and 1.02x (bfloat16 2.82 TB/s), and 1.06x staged_row_8k
// there at bfloat16 49152 (results/runs/2026-12-06-gpu-s38, g4/ and g2/). Loses wherever a row ends
// inside a chunk, whose 4 steps a thread are then guarded one by one (0.74 to 0.83x staged_row_8k
// at N = 24576 to 37025); the stage's steps alone, cut apart from the bucket, gained nothing (g2/:
// xw_s4, xw_s8). Nsight Compute at bfloat16 65536 on the H200 (results/rows_ncu.md, s38): DRAM read
// once, one block of 16 warps an SM (24% occupancy; 93 registers), 21 instructions an element
// (staged_row_wide 22), the long-scoreboard stall 7.7 cycles an issue against 8.7: the loads of one
// block's row still wait with no other block to overlap them.
// Exact rows (s39, issue 30; Form::exact): rows of N = 16384, aligned, in kernels of their own with
// N a constant, so no mask, guard or division by N is left; on an H100 1.02x there
// (results/runs/2026-12-06-gpu-s39, g1/). 32768 and 65536 gained under 1%: left out.
// targets: cuda
// dtypes: bfloat16 float16
// row_limit: 196608 bytes
// summary: one row a block of 512 threads, h staged in shared memory up to 192 KB, 16K chunks
#include "row_funcs.h"

namespace fuselab {

FUSELAB_SCHEDULE(RmsnormResidual, staged_row_16k) {
    rows::Form form;
    form.kind = rows::Form::Block, form.threads = 512, form.bucket = 16384, form.staged = true;
    form.adjacent = rows::Form::Never;  // as staged_row_wide (s25 e1/, odd_ab.py)
    form.staged_bytes = 196608;
    form.exact = 1;  // N = 16384 (s39 g1/)
    rows::gpu_rows(g, form, target);
}

}  // namespace fuselab
