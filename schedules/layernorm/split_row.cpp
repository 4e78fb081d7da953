// split_row: for long rows (N >= 65536). Rows in waves of 24 MB of x (an outer serial loop over row
// groups), each wave 4 kernels: (1) the sum of each 32 KB chunk of a row, a block a chunk (the
// block_row reduction), to global memory; (2) one thread a row combines its row's chunk sums (the
// mean); (3) the sum of squared deviations of each chunk, re-reading the wave's x from L2; (4) the
// output, a block a chunk, each block combining its row's few chunk partials, re-reading x from L2.
// Intermediates: 8 bytes a chunk and 4 a row. DRAM traffic x + out if the wave stays in the 60 MB
// L2 between (1) and (4), 2x + out if not. 256 threads a block, 1.1 KB of shared memory, at most 76
// registers. Kernel (2) exists because two kernels read the mean (see softmax/split_row.cpp). Bets
// on N = 65536 float32 and 262144.
// The bet was lost on the H200 (-s11): never the fastest strategy; float32 at N = 65536 1.20 TB/s
// against block_row_wide's 2.24, at 262144 0.96 against 1.90. Both sizes are 11 waves of 4
// dependent kernels, each grid 768 blocks (under 6 an SM), so a call is a chain of small launches:
// our guess, not yet profiled, is that their gaps and tails cost more than serving the re-reads
// from L2 saves.
// targets: cuda
// Measured 2026-12-02 (results/runs/2026-12-02-h200-s11, -cpu-s11), at the minimum bytes, 2^26
// elements a call on the H200 and 2^22 on the CPU, by N (*: the fastest strategy there): H200 TB/s:
// float32 256 0.09, 1k 0.32, 4k 0.99, 16k 1.26, 64k 1.20, 256k 0.96; bfloat16 256 0.02, 1k 0.09, 4k
// 0.35, 16k 1.02, 64k 1.00, 256k 0.90; float16 256 0.01, 1k 0.05, 4k 0.20, 16k 0.71, 64k 0.71, 256k
// 0.66; CPU: not built.
// summary: several blocks a row, chunk statistics through global memory, rows in L2-sized waves
#include "layernorm.h"
#include "rows_common.h"

namespace fuselab {

FUSELAB_SCHEDULE(Layernorm, split_row) {
    using namespace Halide;
    const int V = rows::vec_elems(g.x.type()), bytes = g.x.type().bytes();
    const rows::SplitShape sh{32768 / bytes, 256, 24 << 20};
    LoopLevel block;
    const LoopLevel wave =
        rows::gpu_split_rows(g.out, g.i, g.row, g.x.dim(0).extent(), bytes, sh, V, &block);
    rows::gpu_split_stat(g.sum, g.r.x, wave, g.row, sh, V, nullptr);
    rows::gpu_split_stat(g.sumsq, g.r.x, wave, g.row, sh, V, &block);
    rows::align_buffers(g.x, g.w, g.b, g.out);
    g.out.specialize(rows::aligned_rows(V, g.x, g.out));
}

}  // namespace fuselab
