// Loop shapes for the 2-D stencil pipelines (blur3x3, stencil_chain).
#pragma once

#include <algorithm>
#include <vector>

#include "Halide.h"

namespace fuselab::image {

using namespace Halide;

// The CPU stencils' vector width: 8 floats (256 bits), also where AVX-512 has 16. A stencil's
// loads at x + 1, x + 2 are unaligned; a 64-byte vector then always spans two cache lines (two L1
// accesses a load), a 32-byte one half the time. The 3x3 blur's 9 loads an output vector made it
// load-bound: one thread took 5.2 ms at 4096x4096 with 8 lanes against 7.5 with 16 and 8.3 with 32
// (2026-12-01, this 2-core EPYC), stencil_chain_k2 inline_all 5.5 against 7.0. Where the work per
// load is larger the wide vectors stay: the tiled forms (16 lanes: 8 lost 10%) and
// stencil_chain_k4's inline_all (32: 14.6 against 16.6 ms).
inline int stencil_lanes(const Target &target) {
    return std::min(8, target.natural_vector_size<float>());
}

// f(x, y) as its own loop nest. CUDA: a kernel of 32x8 thread blocks. CPU: rows in parallel,
// x vectorized by `lanes` (0: stencil_lanes).
inline void own_loop(Func f, const Var &x, const Var &y, const Target &target, int lanes = 0) {
    Var xo{"xo"}, yo{"yo"}, xi{"xi"}, yi{"yi"};
    if (target.has_gpu_feature()) {
        f.gpu_tile(x, y, xo, yo, xi, yi, 32, 8, TailStrategy::GuardWithIf);
    } else {
        f.vectorize(x, lanes ? lanes : stencil_lanes(target), TailStrategy::GuardWithIf)
            .parallel(y, 8, TailStrategy::GuardWithIf);
    }
}

// The consumer tiled: CUDA tiles of tw x th threads (one block each); CPU tiles of tw x th
// computed by parallel tasks. Returns the loop level at which producers are computed per tile.
inline LoopLevel tiles(Func out, const Var &x, const Var &y, const Target &target, int tw, int th) {
    Var xo{"xo"}, yo{"yo"}, xi{"xi"}, yi{"yi"};
    if (target.has_gpu_feature()) {
        out.gpu_tile(x, y, xo, yo, xi, yi, tw, th, TailStrategy::GuardWithIf);
    } else {
        out.tile(x, y, xo, yo, xi, yi, tw, th, TailStrategy::GuardWithIf)
            .vectorize(xi, target.natural_vector_size<float>(), TailStrategy::GuardWithIf)
            .parallel(yo);
    }
    return LoopLevel(out, xo);
}

// A producer computed per tile of its consumer: in shared memory, by the block's threads, on
// CUDA; vectorized in a cache-resident scratch buffer on the CPU.
inline void in_tile(Func f, const LoopLevel &tile, const Var &x, const Var &y,
                    const Target &target) {
    f.compute_at(tile);
    if (target.has_gpu_feature()) {
        f.gpu_threads(x, y);
    } else {
        f.vectorize(x, target.natural_vector_size<float>(), TailStrategy::GuardWithIf);
    }
}

// A register line buffer: one kernel that reads its input once. Each CUDA thread owns a strip of
// `cols` output columns and `rows` output rows and walks it down y, one row at a time; every
// intermediate stage keeps only the rows its consumer still needs (store_at the thread, compute_at
// the row loop: Halide's sliding window computes one new row of each stage a step, and storage
// folding keeps two rows of a 2-row window), and the row loop is unrolled so that every folded
// index is a constant and the buffers live in registers. The input's rows are read once a strip
// through a wrapper, in aligned 8- or 16-byte vectors where the columns and the row stride allow.
//
// Why the storage is MemoryType::Stack and the rows go in unrolled pairs: with
// MemoryType::Register, Halide rolls the buffers (each step copies the older rows) and backs the
// loop's start up to warm them, once per stage; with a chain of stages the backed-up steps read
// input rows above the strip, i.e. outside the image for the first strip (Halide refuses the call:
// "Input buffer in is accessed at -6"; issue 8140 reports wrong results from the same backing-up).
// Folded stack buffers over pairs of rows are warmed up explicitly on the first step instead, and
// read only rows of the strip and its halo.
//
// Three branches (specializations) with the same loop names, so the stages' levels exist in each:
// whole strips and blocks where the width is a multiple of cols x threads and the height of rows
// (no guard, one copy of the body: the default sizes); strips shifted inwards at the right edge
// and cut at the bottom otherwise; one column a thread for images narrower than a strip. CPU: the
// same loop nest, strips serial inside parallel bands, so the CPU build checks the same sliding
// and folding against float64.
struct LineBufferShape {
    int cols;     // output columns a thread (even)
    int rows;     // output rows a strip (even; the strip's rows are unrolled)
    int threads;  // CUDA threads a block, along x
    // Store each output row of a strip as 16-byte vectors. Only where `out` reads the last stage
    // at aligned columns (blur3x3's bx; stencil_chain's s_K, which out copies): a vector read at a
    // shifted column of a register array makes LLVM keep the array in local memory (stencil_chain
    // with s_K inlined reads s_K-1 at x and x + 1).
    bool vector_store = false;
};

// The widest load, in floats, that divides a strip's input row of `n` floats (1: scalar loads).
inline int line_buffer_load_width(int n) {
    return n % 4 == 0 ? 4 : n % 2 == 0 ? 2 : 1;
}

// `out` reads `stages` (innermost first, pure 2-D Funcs of (x, y)), the first of which reads
// `in`; a strip's input row is cols + halo floats.
template <typename In>
void register_line_buffer(Func out, const Var &x, const Var &y, In &in,
                          const std::vector<Func> &stages, int halo, const Target &target,
                          const LineBufferShape &shape) {
    const bool gpu = target.has_gpu_feature();
    const int V = shape.cols, R = shape.rows, T = shape.threads;
    const int L = line_buffer_load_width(V + halo);
    Var xt{"xt"}, xv{"xv"}, xw{"xw"}, ys{"ys"}, yr{"yr"}, yu{"yu"}, bx{"bx"}, by{"by"}, tx{"tx"},
        ty{"ty"};
    // The rows' split is guarded in every branch: its clamped row index keeps Halide's sliding
    // window from backing the loop up (explicit warm-up instead, see above).
    auto strips = [&](Stage s, int cols, TailStrategy tail, bool vector_store) {
        const TailStrategy x_tail =
            tail == TailStrategy::RoundUp ? tail : TailStrategy::ShiftInwards;
        s.split(x, xt, xv, cols, x_tail)
            .split(y, ys, yr, R, TailStrategy::GuardWithIf)
            .split(yr, yr, yu, 2)
            .reorder(xv, yu, yr, xt, ys)
            .unroll(yu)
            .unroll(yr);
        if (gpu) {
            s.gpu_tile(xt, ys, bx, by, tx, ty, T, 1, tail);
        } else {
            s.parallel(ys);
        }
        if (vector_store) {
            // Vectors of 4: Halide's PTX backend turns an aligned 4-float store into one 16-byte
            // store (wider vectors get 8-byte alignment at most).
            s.split(xv, xv, xw, 4).vectorize(xw).unroll(xv);
        } else {
            s.unroll(xv);
        }
    };
    OutputImageParam ob = out.output_buffer();
    Expr whole = ob.dim(0).extent() % (V * (gpu ? T : 1)) == 0;
    if (L > 1) whole = whole && in.dim(1).stride() % L == 0;
    if (shape.vector_store) whole = whole && ob.dim(1).stride() % 4 == 0;
    strips(out.specialize(whole), V, TailStrategy::RoundUp, shape.vector_store);
    strips(out.specialize(ob.dim(0).extent() >= V), V, TailStrategy::GuardWithIf,
           shape.vector_store);
    strips(out, 1, TailStrategy::GuardWithIf, false);

    const LoopLevel strip = gpu ? LoopLevel(out, tx) : LoopLevel(out, xt);
    const LoopLevel row(out, yu);
    for (Func s : stages) {
        s.store_at(strip)
            .compute_at(row)
            .store_in(MemoryType::Stack)
            .unroll(s.args()[0])
            .unroll(s.args()[1]);
    }
    Func rows = in.in();
    const Var u = rows.args()[0], v = rows.args()[1];
    Var uo{"uo"}, ui{"ui"};
    rows.store_at(strip).compute_at(row).store_in(MemoryType::Stack).unroll(v);
    if (L > 1) {
        // The vector loads need the buffers' 16-byte alignment declared (a runtime check on the
        // host pointer; device allocations are 256-byte aligned).
        in.set_host_alignment(16);
        rows.specialize(in.dim(1).stride() % L == 0)
            .split(u, uo, ui, L, TailStrategy::GuardWithIf)
            .vectorize(ui)
            .unroll(uo);
    }
    if (shape.vector_store) ob.set_host_alignment(16);
    rows.unroll(u);
}

}  // namespace fuselab::image
