// block_row: one kernel, one row a block. 256 threads side by side over the row, each loading 16
// bytes (4 float32, 8 bfloat16/float16) a step, 16 elements a thread in flight; the max and the sum
// are each reduced inside the block (per thread in registers, per thread in shared memory, per lane
// over the 8 warps, then one thread over the 32 lanes), 2.1 KB of shared memory. The row is read
// three times (max, sum, output): from DRAM once, then from L1/L2 (a block's row is 16 KB at N =
// 4096 float32). No intermediate in global memory: x read once from DRAM, out written once. ptxas
// (sm_90, 128-register cap): 52 to 64 registers, no spills (4 blocks an SM). Bets on N = 1024 to
// 16384, where a block's row stays in L1/L2 between the passes. CPU: rows in parallel tasks, each
// row's max, exp(x - max) (a row-sized scratch buffer) and sum at the row, vectorized.
// CPU (s14, then s27): the statistics' 4 vectors of partials in registers, folded lane by lane
// and then as a shuffle tree; rows of at least 4 vectors without masked operations
// (rows_common.h: cpu_stat, cpu_rows_specialize); the max a float max beside an integer max of
// magnitudes (the NaN row's test); math.h's exp_nonpositive_cpu (12 vector operations); the
// scratch one row a task, and a bad row's NaN set once on 1 / sum. Behind ONNX Runtime in float32
// (2026-12-04, 2-core AVX-512 Xeon, same process, 2^22 elements, results/runs/2026-12-04-cpu-s27:
// cpu_rows.json 810 against 602 us at N = 256, 950 against 837 at 4096, 994 against 984 at 65536;
// cpu_rows2.json, the same kernel an hour later, 857 against 633, 1015 against 909, 994 against
// 945). On one thread within L2 it is 1.03 to 1.12x behind, from memory 1.06 to 1.21x (there:
// threads.txt, ort_sumexp.txt). ONNX Runtime's exponential (14 vector operations, one of them
// vscalefps) writes the output in its own pass, the stores' misses under the arithmetic, and
// rescales it in place; a Halide Func cannot feed a sum that a later stage of its own reads, so
// here the output's stores come in their own short pass. Since s41 the rows go one contiguous
// share a thread (rows_common.h: cpu_rows_per_task), 0.72x to 0.85x the time of 16K-element tasks
// at float32 N = 1024 and 16384 (results/runs/2026-12-06-gpu-s41/cpu_tasks/ab2_summary.txt).
// 16-bit types load and store 16 bytes at a time since 2026-12-02 (fuselab/wide_accesses.h;
// correct on the H200 then, results/runs/2026-12-02-h200-s12/rows).
// Where it wins (the committed tables; per-N figures there, not here): on the H200 it is fuselab's
// best at none of softmax's 18 row cells (results/h200.md, s38's records); on the CPU at
// 7 of 9 (float32 N = 256; bfloat16 and float16 at every N: results/cpu.md).
// summary: one kernel, one row a block, max and sum reduced in the block, x re-read from L1/L2
#include "rows_common.h"
#include "softmax.h"

namespace fuselab {

FUSELAB_SCHEDULE(Softmax, block_row) {
    using namespace Halide;
    if (target.has_gpu_feature()) {
        const int T = 256, V = rows::vec_elems(g.x.type());
        const LoopLevel block = rows::gpu_block_rows(g.out, g.i, g.row, T, V);
        rows::gpu_block_stat(g.mx, g.r.x, block, g.row, T, V);
        rows::gpu_block_stat(g.sum, g.r.x, block, g.row, T, V);
        rows::align_buffers(g.x, g.out);
        fuselab::wide_accesses(g, target);
        g.out.specialize(rows::aligned_rows(V, g.x, g.out));
    } else {
        LoopLevel task;
        const LoopLevel row = rows::cpu_rows(g.out, g.i, g.row, g.x.dim(0).extent(),
                                             g.x.dim(1).extent(), target, &task);
        rows::cpu_stat(g.mx, g.r.x, row, target, g.x.dim(0).extent(), true);
        rows::cpu_row_stage(g.ex, g.i, row, task, target);
        rows::cpu_stat(g.sum, g.r.x, row, target, g.x.dim(0).extent(), true);
        // Fewer loop steps an element in the output's and the exponential's loops (2% at N = 256
        // to 65536, within this VM's noise: results/runs/2026-12-04-cpu-s27).
        g.out.unroll(g.i, 4, TailStrategy::GuardWithIf);
        g.ex.unroll(g.i, 2, TailStrategy::GuardWithIf);
        rows::cpu_rows_specialize(g.out, g.x.dim(0).extent(), target);
    }
}

}  // namespace fuselab
