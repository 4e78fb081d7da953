// block_row: one kernel, one row a block. 256 threads side by side over the row, each loading 16
// bytes (4 float32, 8 bfloat16/float16) a step, 16 elements a thread in flight; the sum (for the
// mean) and then the sum of squared deviations are each reduced inside the block (per thread in
// registers, per thread in shared memory, per lane over the 8 warps, then one thread over the 32
// lanes), 2.1 KB of shared memory. The row is read three times (sum, deviations, output): from DRAM
// once, then from L1/L2. w and b are read by every block (from L2). No intermediate in global
// memory; 58 to 73 registers, no spills. Bets on N = 1024 to 16384. CPU: rows in parallel tasks,
// the two statistics computed at the row (the row stays in L1/L2), vectorized.
// Since 2026-12-02 (s14) the CPU statistics keep their 4 vectors of partials in registers and
// rows of at least 4 vectors run without masked operations (rows_common.h: cpu_stat,
// cpu_rows_specialize): 1.1-1.8x the earlier form on a 2-core AVX2 EPYC
// (results/runs/2026-12-02-cpu-s14/ab_rows.txt). Since 2026-12-05 (s34) rows that are whole
// steps of 4 vectors run their own branch, the folds unrolled and their partials in registers
// (cpu_rows_specialize's whole_steps): within L2 on one thread 1.35x at N = 256 and 1.21x at 64
// in float32, 0.99 to 1.21x in 16-bit, the same elsewhere
// (results/runs/2026-12-05-cpu-s34/ab_spec_l2.txt, ab_spec_l2c.txt).
// 16-bit types load and store 16 bytes at a time since 2026-12-02 (fuselab/wide_accesses.h;
// correct on the H200 then, results/runs/2026-12-02-h200-s12/rows).
// Where it wins (the committed tables; per-N figures there, not here): on the H200 it is fuselab's
// best at none of layernorm's 18 row cells (results/h200.md, s38's records); on the CPU at
// 6 of 9 (float32 at every N; bfloat16 N = 4096; float16 N = 4096 and 65536: results/cpu.md).
// summary: one kernel, one row a block, mean and variance reduced in the block, x re-read
#include "layernorm.h"
#include "rows_common.h"

namespace fuselab {

FUSELAB_SCHEDULE(Layernorm, block_row) {
    using namespace Halide;
    if (target.has_gpu_feature()) {
        const int T = 256, V = rows::vec_elems(g.x.type());
        const LoopLevel block = rows::gpu_block_rows(g.out, g.i, g.row, T, V);
        rows::gpu_block_stat(g.sum, g.r.x, block, g.row, T, V);
        rows::gpu_block_stat(g.sumsq, g.r.x, block, g.row, T, V);
        rows::align_buffers(g.x, g.w, g.b, g.out);
        fuselab::wide_accesses(g, target);
        g.out.specialize(rows::aligned_rows(V, g.x, g.out));
    } else {
        const LoopLevel row =
            rows::cpu_rows(g.out, g.i, g.row, g.x.dim(0).extent(), g.x.dim(1).extent(), target);
        rows::cpu_stat(g.sum, g.r.x, row, target, g.x.dim(0).extent(), true);
        rows::cpu_stat(g.sumsq, g.r.x, row, target, g.x.dim(0).extent(), true);
        rows::cpu_rows_specialize(g.out, g.x.dim(0).extent(), target, true);
    }
}

}  // namespace fuselab
