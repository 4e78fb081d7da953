// The CUDA schedule of the row pipelines' chunked form (generators/chunks.h; the chunked_row
// strategies): three kernels.
//   chunks  one block of T threads a chunk (the chunks and rows fused into one grid dimension,
//           which has room for any M), each chunk statistic reduced over the chunk's C elements as
//           block_row reduces a row (gpu_block_stat: 16 bytes a thread a step, a constant extent
//           wherever n >= C), the partials stored in global memory;
//   rows    one warp a row combines the row's partials into what the output reads of the row
//           (rowstat: softmax's max and 1 / sum, layernorm's mean and rstd, rmsnorm's rstd);
//   output  one block a chunk of the output, the same cut, from x read again: it only streams.
// An earlier form combined the partials in each output block (gpu_block_stat over the row's
// chunks): its barriers before the first load held the output's kernel to 2.6 TB/s (float32),
// where the chunks' kernel read at 4.26 (Nsight Compute, results/runs/2026-12-03-h200-s20/a).
// The chunk statistics after the first reuse the chunk's loaded values: each thread keeps its
// elements in registers (the read-only loads are not repeated: SASS of chunked_row).
#pragma once

#include <vector>

#include "fuselab/wide_accesses.h"
#include "rows_common.h"

namespace fuselab::rows {

struct ChunkFuncs {
    Func part;                      // the chunks' partials (c, row), computed at the root
    Var c, row;                     // its loop variables
    RVar rk;                        // a chunk's reduction variable
    std::vector<Func> chunk_stats;  // reductions over rk, computed in part's kernel, in order
    Func out;                       // the row-wise output (i, row)
    Var i;                          // its element variable
    RVar q;                         // the reduction variable over a row's chunks
    std::vector<Func> row_stats;    // reductions over q, computed in rowstat's kernel, in order
    Func rowstat;                   // what out reads of each row, computed at the root
    Func second;                    // a second output beside out (rmsnorm's h), or undefined
    Type type;                      // the storage type
    Expr n;                         // the row's length
    Expr aligned;                   // every row of every buffer starts on a 16-byte boundary
    int chunk = 0;                  // C, elements a chunk
    bool part_reduces = false;      // part is itself the one chunk statistic (rmsnorm's)
};

template <typename G>
void gpu_chunked_rows(G &g, const ChunkFuncs &f, int T, const Target &target) {
    const int V = vec_elems(f.type), C = f.chunk;
    // part's kernel: part itself, or where part is the reduction, a wrapper that reads it (as
    // gpu_stat_kernel).
    Func stat = f.part;
    Func part = f.part_reduces ? stat.in() : stat;
    Var pb{"part_b"};
    part.compute_root().fuse(f.c, f.row, pb).gpu_blocks(pb);
    const LoopLevel chunk_block(part, pb);
    if (f.part_reduces) {
        const RVar last = gpu_block_partials(stat, f.rk, chunk_block, T, V, 0, C);
        stat.compute_at(chunk_block);
        stat.update().unroll(last, 8, TailStrategy::GuardWithIf);
    }
    for (Func s : f.chunk_stats) gpu_block_stat(s, f.rk, chunk_block, f.row, T, V, 0, C);
    part.specialize(f.n >= C && f.aligned);
    part.specialize(f.n >= C);

    Func out = f.out;
    Var ik{"i_k"}, iu{"i_u"}, it{"i_t"}, iv{"i_v"}, ob{"out_b"};
    split_row(out, f.i, ik, iu, it, iv, T, V, 0, C);
    out.reorder(iv, iu, it, ik, f.row)
        .fuse(ik, f.row, ob)
        .gpu_blocks(ob)
        .gpu_threads(it)
        .vectorize(iv)
        .unroll(iu);
    if (f.second.defined()) {
        Func s = f.second;
        split_row(s, f.i, ik, iu, it, iv, T, V, 0, C);
        s.reorder(iv, iu, it, ik, f.row)
            .fuse(ik, f.row, ob)
            .gpu_blocks(ob)
            .gpu_threads(it)
            .vectorize(iv)
            .unroll(iu)
            .compute_with(out, iu);
    }
    // The rows' statistics: one warp a row, each lane a few of the row's partials, then the 32
    // combined by one thread (gpu_block_stat). s20 b/ had a thread a row loop over the row's
    // partials: its kernel took 12.6 us of softmax float32's 206 at N = 262144 (64 partials a
    // row, one L2 round trip each 4), Nsight Compute, results/runs/2026-12-03-h200-s20/b/ncu.
    Func rowstat = f.rowstat;
    rowstat.compute_root().gpu_blocks(f.row);
    const LoopLevel row_block(rowstat, f.row);
    for (Func s : f.row_stats) gpu_block_stat(s, f.q, row_block, f.row, 32, 1);
    out.specialize(f.n >= C && f.aligned);
    out.specialize(f.aligned);
    wide_accesses(g, target);
}

}  // namespace fuselab::rows
