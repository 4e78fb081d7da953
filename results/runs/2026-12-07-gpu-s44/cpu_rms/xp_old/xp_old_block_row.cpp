#include "rmsnorm_residual.h"
#include "rows_common.h"

namespace fuselab {

FUSELAB_SCHEDULE(RmsnormResidual, xp_old_block_row) {
    using namespace Halide;
    const Expr n = g.x.dim(0).extent(), m = g.x.dim(1).extent();
    if (target.has_gpu_feature()) {
        const int T = 256, V = rows::vec_elems(g.x.type());
        const LoopLevel block = rows::gpu_block_rows(g.out, g.i, g.row, T, V);
        rows::gpu_block_rows_with(g.h, g.out, g.i, g.row, T, V);
        rows::gpu_block_stat(g.sumsq, g.r.x, block, g.row, T, V);
        rows::align_buffers(g.x, g.residual, g.w, g.out, g.h);
        fuselab::wide_accesses(g, target);
        g.out.specialize(rows::aligned_rows(V, g.x, g.residual, g.out, g.h));
    } else {
        const LoopLevel row = rows::cpu_rows(g.out, g.i, g.row, n, m, target);
        {  // s44 A/B: the old cpu_rows_with (h fused with out at the row only)
            Var rowo{g.row.name() + "_o"}, rowi{g.row.name() + "_i"};
            g.h.split(g.row, rowo, rowi, rows::cpu_rows_per_task(n, m), TailStrategy::GuardWithIf)
                .vectorize(g.i, rows::cpu_lanes(target), TailStrategy::GuardWithIf)
                .parallel(rowo)
                .compute_with(g.out, rowi);
        }
        rows::cpu_stat(g.sumsq, g.r.x, row, target, n, false, 1);
    }
}

}  // namespace fuselab
