// split_row: for long rows (N >= 65536). Rows in waves of 24 MB of x (an outer serial loop over row
// groups: 24 rows at N = 262144 float32), each wave 4 kernels: (1) the max of each 32 KB chunk of a
// row, a block a chunk (the block_row reduction), to global memory; (2) one thread a row combines
// its row's chunk maxima; (3) the sum of exp(x - max) of each chunk, a block a chunk, re-reading
// the wave's x from L2; (4) the output, a block a chunk, each block combining its row's few chunk
// sums, re-reading x from L2. Intermediates: 8 bytes a chunk and 4 a row. DRAM traffic x + out if
// the wave stays in the 60 MB L2 between (1) and (4), 2x + out if not. 256 threads a block, 1.1 KB
// of shared memory, at most 56 registers. Kernel (2) exists because two kernels read the max (a
// statistic has one compute site; a copy of an rfactored Func made with clone_in still refers to
// the original in Halide 21). Bets on N = 65536 float32 and 262144; the 4 launches a wave cost
// about 16 us of host time a wave.
// The bet was lost on the H200 (-s11): never the fastest strategy; float32 at N = 65536 1.13 TB/s
// against block_row_wide's 2.04, at 262144 0.97 against 2.05. Both sizes are 11 waves of 4
// dependent kernels, each grid 768 blocks (under 6 an SM), so a call is a chain of small launches:
// our guess, not yet profiled, is that their gaps and tails cost more than serving the re-reads
// from L2 saves.
// targets: cuda
// Measured 2026-12-02 (results/runs/2026-12-02-h200-s11, -cpu-s11), at the minimum bytes, 2^26
// elements a call on the H200 and 2^22 on the CPU, by N (*: the fastest strategy there): H200 TB/s:
// float32 256 0.10, 1k 0.37, 4k 0.98, 16k 1.16, 64k 1.13, 256k 0.97; bfloat16 256 0.03, 1k 0.12, 4k
// 0.43, 16k 1.09, 64k 1.08, 256k 0.98; float16 256 0.02, 1k 0.07, 4k 0.27, 16k 0.88, 64k 0.87, 256k
// 0.81; CPU: not built.
// summary: several blocks a row, chunk statistics through global memory, rows in L2-sized waves
#include "rows_common.h"
#include "softmax.h"

namespace fuselab {

FUSELAB_SCHEDULE(Softmax, split_row) {
    using namespace Halide;
    const int V = rows::vec_elems(g.x.type()), bytes = g.x.type().bytes();
    const rows::SplitShape sh{32768 / bytes, 256, 24 << 20};
    LoopLevel block;
    const LoopLevel wave =
        rows::gpu_split_rows(g.out, g.i, g.row, g.x.dim(0).extent(), bytes, sh, V, &block);
    rows::gpu_split_stat(g.mx, g.r.x, wave, g.row, sh, V, nullptr);
    rows::gpu_split_stat(g.sum, g.r.x, wave, g.row, sh, V, &block);
    rows::align_buffers(g.x, g.out);
    g.out.specialize(rows::aligned_rows(V, g.x, g.out));
}

}  // namespace fuselab
