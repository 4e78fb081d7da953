// Loop shapes shared by the conv_relu_pool strategies.
#pragma once

#include <type_traits>

#include "conv_common.h"
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

// The register-blocked fused kernel: one CUDA thread per `px` pooled pixels (along x) and `kb`
// output channels; its 2px x 2 x kb conv results accumulate in registers over the 3x3xC taps,
// relu and the pool are applied in registers, and only the pooled outputs are stored. Each
// weight load feeds 4 px multiply-adds and each input load up to 4 kb. The accumulators'
// extents are fixed (bound_extent, bound_storage) and their loops unrolled with guards, so every
// index stays constant, i.e. in registers, also where the image or channel edge cuts a tile;
// conv columns past the edge are computed from the zero padding and never stored. CPU: conv
// strips of two rows computed per pooled row inside each parallel task.
//
// With `shared_weights`, each block first copies its kb x C x 3 x 3 weights into shared memory,
// k innermost, so that a tap's kb weights are read as kb/4 broadcast 16-byte shared loads instead
// of kb global loads; where K >= kb the channel blocks shift inwards (no channel guard; the last
// block recomputes a few channels) and only K < kb keeps the guarded form.
//
// G is ConvReluPool or ConvReluPoolConst (weights as scalars: no shared copy there). With
// `unroll_channels` (a constant C), the channel loop is unrolled too, so that every tap's weight
// index is a constant: in ConvReluPoolConst, one scalar kernel parameter.
template <typename G>
void register_blocked(G &g, const Target &target, int kb, int tx = 32, int ty = 4, int px = 1,
                      bool shared_weights = false, bool unroll_channels = false) {
    Var yk{"yk"};
    auto &x = g.x, &y = g.y, &k = g.k;
    auto &r = g.r;
    if (!target.has_gpu_feature()) {
        const int lanes = target.natural_vector_size<float>();
        g.out.vectorize(x, lanes, TailStrategy::GuardWithIf).fuse(y, k, yk).parallel(yk);
        g.conv.compute_at(g.out, yk).vectorize(x, lanes, TailStrategy::GuardWithIf);
        g.acc.compute_at(g.conv, x).vectorize(x);
        g.acc.update().vectorize(x).reorder(x, y, r.x, r.y, r.z).unroll(r.x).unroll(r.y);
        return;
    }
    auto tile_out = [&](Stage s, TailStrategy k_tail) {
        conv::thread_tiles(s, x, y, k, kb, px, tx, ty, k_tail);
    };
    if constexpr (std::is_same_v<G, ConvReluPool>) {
        if (shared_weights) {
            tile_out(g.out.specialize(g.weights.dim(3).extent() >= kb), TailStrategy::ShiftInwards);
        }
    }
    tile_out(g.out, TailStrategy::GuardWithIf);
    // A pooled pixel is 2 conv columns (and 2 rows: acc's footprint in y).
    conv::register_tile(g.acc, r, x, y, k, LoopLevel(g.out, conv::thread_var()), 2 * px, kb);
    if (unroll_channels) g.acc.update().unroll(r.z);
    if constexpr (std::is_same_v<G, ConvReluPool>) {
        if (shared_weights) {
            conv::weights_in_shared(g.weights.in(), LoopLevel(g.out, conv::block_var()), tx, ty);
        }
    }
}

}  // namespace fuselab::conv_relu_pool
