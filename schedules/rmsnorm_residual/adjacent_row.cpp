// adjacent_row: one kernel, one row a block of 128 threads, for rows that are not whole aligned
// 16-byte vectors (N not a multiple of 4 float32 or 8 16-bit elements). Such rows are loaded and
// stored element by element. The other block forms keep their threads a vector apart there
// (thread t at elements 8t .. 8t + 7), so each warp's 2-byte access spans 512 bytes: 16 L1
// wavefronts where 2 would do. Here out and h, written together (compute_with), put the 128
// threads over adjacent elements (rows_forms.h: Form::adjacent_out): one warp's access is 32
// consecutive elements. The sum of h^2 reads x and residual as block_row does; out and h re-read
// them from L1/L2. Costs what block_row costs in DRAM bytes (x, residual read once, h, out written
// once); loses on aligned rows, where 16-byte accesses win (4096: 70.0 us staged_row_2k).
// H200, 2^25 elements a call, against the best shipped strategy of the same call
// (results/runs/2026-12-05-h200-s28/a): float16 N = 1001 151 us (warp_row 195), 1417 129
// (staged_row_2k 201), 2100 108 (209); bfloat16 1001 160 (warp_row 204), 1417 138 (206); float32
// 1001 178 (206), 1417 159 (181). Nsight Compute (d/, float16 1417x23680): 5.6x fewer global
// store sectors than staged_row_2k (6.2 M against 34.9 M), DRAM bytes the minimum in both; what
// is left is barrier stalls (3.9 cycles an instruction: 128 threads on a short row) and the
// statistic's loads, still a vector apart (43 M sectors).
// targets: cuda
// summary: one row a block of 128 threads, out and h stored by adjacent threads (unaligned rows)
#include "row_funcs.h"

namespace fuselab {

FUSELAB_SCHEDULE(RmsnormResidual, adjacent_row) {
    rows::Form form;
    form.kind = rows::Form::Block, form.threads = 128, form.adjacent_out = true;
    rows::gpu_rows(g, form, target);
}

}  // namespace fuselab
