// adjacent_row: one kernel, one row a block of 128 threads, for rows that are not whole aligned
// 16-byte vectors, past a warp's reach (N ~ 4096 to 12288). The other block forms keep their
// threads a vector apart on such rows (thread t at elements 8t .. 8t + 7), so each warp's 2-byte
// access spans 512 bytes. Here the output puts the 128 threads over adjacent elements on every
// row (rows_forms.h: Form::adjacent_out, as rmsnorm_residual's adjacent_row); the sum and the sum
// of squares read x as block_row does, and the output re-reads it from L1/L2. The DRAM bytes of
// block_row (x read once, out written once); loses on aligned rows, where 16-byte accesses win.
// H200, 2^25 elements a call, JIT search (results/runs/2026-12-05-h200-s29 b/), against the best
// shipped strategy of the same call: bfloat16 N = 5989 85 us (staged_row_2k 106), float16 83
// (106), float32 106 (121); s28 c/: 16-bit 5989 1.27 to 1.29x.
// targets: cuda
// summary: one row a block of 128 threads, the output stored by adjacent threads (unaligned rows)
#include "row_funcs.h"

namespace fuselab {

FUSELAB_SCHEDULE(Layernorm, adjacent_row) {
    rows::Form form;
    form.kind = rows::Form::Block, form.threads = 128, form.adjacent_out = true;
    rows::gpu_rows(g, form, target);
}

}  // namespace fuselab
