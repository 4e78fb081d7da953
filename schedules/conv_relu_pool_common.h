// Loop shapes shared by the conv_relu_pool strategies.
#pragma once

#include "conv_relu_pool.h"

namespace fuselab::conv_relu_pool {

using namespace Halide;

// f(x, y, k) as its own loop nest. CUDA: one thread per (x, y, k), 32x8 pixels a block, k in
// the grid. CPU: rows of all channels in parallel, x vectorized.
inline void per_pixel(ConvReluPool &g, Func f, const Target &target) {
    Var xo{"xo"}, yo{"yo"}, xi{"xi"}, yi{"yi"}, yk{"yk"};
    if (target.has_gpu_feature()) {
        f.gpu_tile(g.x, g.y, xo, yo, xi, yi, 32, 8, TailStrategy::GuardWithIf).gpu_blocks(g.k);
    } else {
        f.vectorize(g.x, target.natural_vector_size<float>(), TailStrategy::GuardWithIf)
            .fuse(g.y, g.k, yk)
            .parallel(yk);
    }
}

// The 3x3xC reduction computed per point of `consumer`, accumulating in registers, with the
// 3x3 taps unrolled.
inline void acc_in_registers(ConvReluPool &g, Func consumer, const Target &target) {
    if (target.has_gpu_feature()) {
        Var xi{"xi"};
        g.acc.compute_at(consumer, xi);
    } else {
        const int lanes = target.natural_vector_size<float>();
        g.acc.compute_at(consumer, g.x);
        g.acc.vectorize(g.x, lanes, TailStrategy::GuardWithIf);
        g.acc.update().vectorize(g.x, lanes, TailStrategy::GuardWithIf);
    }
    g.acc.update().reorder(g.x, g.y, g.r.x, g.r.y, g.r.z).unroll(g.r.x).unroll(g.r.y);
}

}  // namespace fuselab::conv_relu_pool
