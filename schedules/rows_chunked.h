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
// The three kernels run band by band of rows (16 or 32 MB of x, a host loop) let the output read
// x from the L2 (0.1 MB of DRAM reads where 245), but were slower: 1.89 TB/s where 2.61 (softmax
// float32, N = 262144), as each band's first kernel ran one short wave and each band paid a rows'
// kernel of 4 us (Nsight Compute, results/runs/2026-12-03-h200-s21/b).
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
    Func second;                    // a second output, written by part's kernel (rmsnorm's h)
    Type type;                      // the storage type
    Expr n;                         // the row's length
    Expr aligned;                   // every row of every buffer starts on a 16-byte boundary
    int chunk = 0;                  // C, elements a chunk
    bool part_reduces = false;      // part is itself the one chunk statistic (rmsnorm's)
};

// The chunked form on CUDA, T threads a block.
template <typename G>
void gpu_chunked_rows(G &g, const ChunkFuncs &f, int T, const Target &target) {
    const int V = vec_elems(f.type), C = f.chunk;
    Var pb{"part_b"}, ik{"i_k"}, iu{"i_u"}, it{"i_t"}, iv{"i_v"}, ob{"out_b"};

    // The output: one block a chunk, the same cut.
    Func out = f.out;
    split_row(out, f.i, ik, iu, it, iv, T, V, 0, C);
    out.reorder(iv, iu, it, ik, f.row).fuse(ik, f.row, ob).gpu_blocks(ob).gpu_threads(it);
    out.vectorize(iv).unroll(iu);

    // part's kernel: part itself, or where part is the reduction, a wrapper that reads it (as
    // gpu_stat_kernel).
    Func stat = f.part;
    Func part = f.part_reduces ? stat.in() : stat;
    part.compute_root();
    if (f.second.defined()) {
        // The second output (rmsnorm's h) in the same blocks, chunk by chunk: its loop nest
        // joined to part's at the block (compute_with), which Halide does for CUDA only where
        // the two fused block dimensions have the same name (part's chunk variable is named as
        // h's element variable, split by 1, so that both are i.i_k.part_b). Its C elements a
        // block are the ones part's reduction has just read, from L1.
        part.split(f.c, ik, iu, 1).fuse(ik, f.row, pb).gpu_blocks(pb);
        Func s = f.second;
        split_row(s, f.i, ik, iu, it, iv, T, V, 0, C);
        s.reorder(iv, iu, it, ik, f.row)
            .fuse(ik, f.row, pb)
            .gpu_blocks(pb)
            .gpu_threads(it)
            .vectorize(iv)
            .unroll(iu)
            .compute_with(part, pb);
    } else {
        part.fuse(f.c, f.row, pb).gpu_blocks(pb);
    }
    const LoopLevel chunk_block(part, pb);
    if (f.part_reduces) {
        const RVar last = gpu_block_partials(stat, f.rk, chunk_block, T, V, 0, C);
        stat.compute_at(chunk_block);
        stat.update().unroll(last, 8, TailStrategy::GuardWithIf);
    }
    for (Func s : f.chunk_stats) gpu_block_stat(s, f.rk, chunk_block, f.row, T, V, 0, C);
    part.specialize(f.n >= C && f.aligned);
    part.specialize(f.n >= C);

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
