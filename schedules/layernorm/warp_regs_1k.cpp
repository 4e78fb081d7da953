// warp_regs_1k: one kernel, one warp a row, 4 rows a block, the row held in registers: rows of
// at most 1024 elements (row_limit), each lane holding its 32 of them, as float32, twice (x
// widened, then x less the row's mean). So the row is read from DRAM once. The sum and the sum
// of squares: each lane's partial from its registers, then the 32 partials read by
// shfl.sync.idx (unrolled) inside the lanes of the one stage that reads it (the sum in the
// centred row's, the sum of squares in the output's). No shared memory, no barrier.
// targets: cuda
// row_limit: 1024 elements
// summary: one warp a row, 4 rows a block, rows of at most 1024 held in registers
#include "row_funcs.h"

namespace fuselab {

FUSELAB_SCHEDULE(Layernorm, warp_regs_1k) {
    using namespace rows;
    const int V = vec_elems(g.x.type()), B = 1024;
    align_buffers(g.x, g.w, g.b, g.out);
    const Expr n = g.x.dim(0).extent(), aligned = aligned_rows(V, g.x, g.out);
    const LoopLevel warp = gpu_warp_regs_rows(g.out, Func(), g.i, g.row, 4, V, B, n, aligned);
    gpu_warp_regs(g.xf, g.i, warp, V, B);
    const LoopLevel xc_lane = gpu_warp_regs(g.xc, g.i, warp, V, B);
    gpu_warp_stat_in(g.sum, g.r, warp, xc_lane, g.row, V, B);
    gpu_warp_stat_in(g.sumsq, g.r, warp, gpu_warp_rows_lane(g.out, g.i), g.row, V, B);
    wide_accesses(g, target);
}

}  // namespace fuselab
