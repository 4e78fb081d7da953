// staged_row_16k: one kernel, one row a block of 512 threads, the row read from DRAM once into
// shared memory in its storage type and cut into constant chunks of 16384 elements (32 KB, as
// staged_row_wide's 8192 float32 elements; rows_forms.h: Form::staged, Form::bucket): the sum, then
// the sum of squares about the mean, reduced from the staged row, then the output from it. The
// 16-bit types only (float32's 16384-element chunk is 64 KB; staged_row_wide cuts float32 rows by
// 32 KB already). Every pass over the staged row takes 4 vectors of 16 bytes a thread a chunk,
// where staged_row_wide's 8192-element chunk gives a 16-bit thread 2. Wins at N = 65536 (128 KB a
// row, one block an SM): on the H200 1.06x staged_row_wide in bfloat16 and 1.10x in float16 (2.41
// and 2.54 TB/s, 0.57 and 0.60 of the copy; torch.compile 2.15 and 2.22), on an H100 1.20x and
// 1.19x (2.17 and 2.32 TB/s), and 1.04x there at 76272 (results/runs/2026-12-06-gpu-s38, g4/ and
// g2/). Loses wherever a row ends inside a chunk, whose 4 steps a thread are then guarded one by
// one (0.48 to 0.64x staged_row_8k at N = 24576 to 37025, 0.83x staged_row_wide at 93173); the
// stage's steps alone, cut apart from the bucket, gained nothing (g2/: xw_s4, xw_s8), so the
// chunk's constant passes are the gain. Nsight Compute at bfloat16 65536 on the H200
// (results/rows_ncu.md, s38): DRAM read once (1.01x the minimum), one block of 16 warps an SM (24%
// occupancy; 96 registers), 23 instructions an element (staged_row_wide 24), the long-scoreboard
// stall 2.8 cycles an issue against 3.4.
// Exact rows (s39, issue 30; Form::exact): rows of N = 16384, aligned, in kernels of their own with
// N a constant, so no mask, guard or division by N is left; on an H100 1.25 and 1.36x there
// (results/runs/2026-12-06-gpu-s39, g1/). 32768 and 65536 lost (0.90x): left out.
// targets: cuda
// dtypes: bfloat16 float16
// row_limit: 196608 bytes
// summary: one row a block of 512 threads, staged in shared memory up to 192 KB, 16K chunks
#include "row_funcs.h"

namespace fuselab {

FUSELAB_SCHEDULE(Layernorm, staged_row_16k) {
    rows::Form form;
    form.kind = rows::Form::Block, form.threads = 512, form.bucket = 16384, form.staged = true;
    form.adjacent = rows::Form::Always;  // as staged_row_wide (s25 e1/, odd_ab.py)
    form.staged_bytes = 196608;
    form.exact = 1;  // N = 16384 (s39 g1/)
    rows::gpu_rows(g, form, target);
}

}  // namespace fuselab
