// Loop shapes for the 2-D stencil pipelines (blur3x3, stencil_chain).
#pragma once

#include "Halide.h"

namespace fuselab::image {

using namespace Halide;

// f(x, y) as its own loop nest. CUDA: a kernel of 32x8 thread blocks. CPU: rows in parallel,
// x vectorized.
inline void own_loop(Func f, const Var &x, const Var &y, const Target &target) {
    Var xo{"xo"}, yo{"yo"}, xi{"xi"}, yi{"yi"};
    if (target.has_gpu_feature()) {
        f.gpu_tile(x, y, xo, yo, xi, yi, 32, 8, TailStrategy::GuardWithIf);
    } else {
        f.vectorize(x, target.natural_vector_size<float>() * 2, TailStrategy::GuardWithIf)
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
