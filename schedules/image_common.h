// Loop shapes for the 2-D stencil pipelines (blur3x3, stencil_chain).
#pragma once

#include <algorithm>

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

}  // namespace fuselab::image
