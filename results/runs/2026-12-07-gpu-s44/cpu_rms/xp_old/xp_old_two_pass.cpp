#include "rmsnorm_residual.h"
#include "rows_common.h"

namespace fuselab {

FUSELAB_SCHEDULE(RmsnormResidual, xp_old_two_pass) {
    using namespace Halide;
    const Expr n = g.x.dim(0).extent(), m = g.x.dim(1).extent();
    if (target.has_gpu_feature()) {
        const int T = 256, V = rows::vec_elems(g.x.type());
        const LoopLevel stats = rows::gpu_row_kernel(g.rstd, g.row);
        rows::gpu_block_stat(g.sumsq, g.r.x, stats, g.row, T, V);
        rows::gpu_block_rows(g.out, g.i, g.row, T, V);
        rows::gpu_block_rows_with(g.h, g.out, g.i, g.row, T, V);
        rows::align_buffers(g.x, g.residual, g.w, g.out, g.h);
        fuselab::wide_accesses(g, target);
        g.out.specialize(rows::aligned_rows(V, g.x, g.residual, g.out, g.h));
    } else {
        Var ro{"row_o"}, ri{"row_i"};
        g.rstd.compute_root()
            .split(g.row, ro, ri, rows::cpu_rows_per_task(n, m), TailStrategy::GuardWithIf)
            .parallel(ro);
        rows::cpu_stat(g.sumsq, g.r.x, LoopLevel(g.rstd, ri), target, n, false, 1);
        rows::cpu_rows(g.out, g.i, g.row, n, m, target);
        {  // s44 A/B: the old cpu_rows_with (h fused with out at the row only)
            Var rowo{g.row.name() + "_o"}, rowi{g.row.name() + "_i"};
            g.h.split(g.row, rowo, rowi, rows::cpu_rows_per_task(n, m), TailStrategy::GuardWithIf)
                .vectorize(g.i, rows::cpu_lanes(target), TailStrategy::GuardWithIf)
                .parallel(rowo)
                .compute_with(g.out, rowi);
        }
    }
}

}  // namespace fuselab
