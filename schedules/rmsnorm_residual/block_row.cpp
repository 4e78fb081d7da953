// block_row: one kernel, one row a block. 256 threads side by side over the row, each loading 16
// bytes of x and of residual (4 float32, 8 bfloat16/float16) a step, 16 elements a thread in
// flight; the sum of h^2 reduced inside the block (per thread in registers, per thread in shared
// memory, per lane over the 8 warps, then one thread over the 32 lanes), 1.1 KB of shared memory.
// Then the same threads write h and out together (compute_with: one loop, both stores), re-reading
// x and residual from L1/L2. No intermediate in global memory: x and residual read once from DRAM,
// h and out written once. 62 to 72 registers (122 in the branch for unaligned rows), no spills.
// Bets on N = 1024 to 16384. CPU: rows in parallel tasks, the sum at the row, then h and out in one
// vectorized loop (since s44; before, two loops: rows_common.h, cpu_rows_with); the sum in one
// chain of partials since s27 (cpu_stat), 1.18 to 1.47x at N = 256
// (results/runs/2026-12-04-cpu-s27).
// bfloat16 on the CPU rounds x + residual once a row into a scratch row (below). Both: 0.69 to
// 1.02x the time at 2^22 elements from N = 256 up on a 2-core Zen 3 (AVX2), where unfused had
// beaten it in bfloat16; 0.90 to 1.16x at N = 16 to 100 (that VM's noise is about 10%)
// (results/runs/2026-12-07-gpu-s44/cpu_rms/ab2_2t_summary.txt).
// 16-bit types load and store 16 bytes at a time since 2026-12-02 (fuselab/wide_accesses.h;
// correct on the H200 then, results/runs/2026-12-02-h200-s12/rows).
// Where it wins (the committed tables; per-N figures there, not here): on the H200 it is fuselab's
// best at none of rmsnorm_residual's 18 row cells (results/h200.md, s38's records); on the CPU at
// 2 of 9 (float32 N = 256, float16 N = 65536: results/cpu.md).
// summary: one kernel, one row a block, sum of h^2 reduced in the block, h and out written together
#include "rmsnorm_residual.h"
#include "rows_common.h"

namespace fuselab {

FUSELAB_SCHEDULE(RmsnormResidual, block_row) {
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
        LoopLevel task;
        const LoopLevel row = rows::cpu_rows(g.out, g.i, g.row, n, m, target, &task);
        rows::cpu_rows_with(g.h, g.out, g.i, g.row, n, m, target);
        // bfloat16: x + residual rounded once a row into a scratch row, which the sum, out and h
        // read; inline, each of the three rounded it again (about ten AVX2 operations a vector:
        // storage.h's narrow). float32's h is one addition and float16's one more conversion
        // (vcvtps2ph): recomputed, where a scratch row costs a store and a load.
        if (g.x.type() == storage_type("bfloat16")) {
            rows::cpu_row_stage(g.hs, g.i, row, task, target);
        }
        rows::cpu_stat(g.sumsq, g.r.x, row, target, n, false, 1);
    }
}

}  // namespace fuselab
