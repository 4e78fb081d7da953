// warp_regs_1k: one kernel, one warp a row, 4 rows a block, the row held in registers: rows of
// at most 1024 elements (row_limit), each lane holding its 32 of h = x + residual in the storage
// type, read from x and residual once. The sum of h^2: each lane's partial from its registers,
// then the 32 partials read by shfl.sync.idx (unrolled) inside the output's lanes; h and out
// stored together from the registers. No shared memory, no barrier.
// targets: cuda
// row_limit: 1024 elements
// summary: one warp a row, 4 rows a block, rows of at most 1024 held in registers
#include "row_funcs.h"

namespace fuselab {

FUSELAB_SCHEDULE(RmsnormResidual, warp_regs_1k) {
    using namespace rows;
    const int V = vec_elems(g.x.type()), B = 1024;
    align_buffers(g.x, g.residual, g.w, g.out, g.h);
    const Expr n = g.x.dim(0).extent();
    const Expr aligned = aligned_rows(V, g.x, g.residual, g.out, g.h);
    const LoopLevel warp = gpu_warp_regs_rows(g.out, g.h, g.i, g.row, 4, V, B, n, aligned);
    gpu_warp_regs(g.hf, g.i, warp, V, B);
    gpu_warp_stat_in(g.sumsq, g.r, warp, gpu_warp_rows_lane(g.out, g.i), g.row, V, B);
    wide_accesses(g, target);
}

}  // namespace fuselab
