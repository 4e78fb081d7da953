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

// The CPU form of the register-blocked fused kernel (`tiled`, `shared_weights`). Each parallel
// task walks `rows` pooled rows; for each pooled row, tiles of one vector of conv columns (16 on
// AVX-512, 8 on AVX2) x 2 conv rows x kb output channels accumulate in registers over the 3x3xC
// taps, kb = lanes / 2 so that the 2 x kb accumulators fill half the vector registers (16 of
// AVX-512's 32, 8 of AVX2's 16) and leave the rest to the 4 input rows and the broadcast weights.
// Every tap's input vector feeds kb FMAs and every broadcast weight 2; relu, the bias and the 2x2
// pool are applied to the tile in registers (the pool's column pairs by a shuffle) and only the
// pooled half-vector is stored. The channel blocks are the innermost loop around the tile, so a
// tile's input is loaded into L1 once for all K channels, and the zero-padded input is copied
// once per row into a sliding window of 4 rows x C (store_at the task, compute_at the pooled
// row), so the tap loads are plain loads (no boundary selects) from L1. As in the CUDA form the
// accumulators' extents are fixed (bound_extent, bound_storage) and the channel block shifts
// inwards where K >= kb (K < kb keeps a guarded form); conv columns past the image edge are
// computed from the zero padding and never stored.
template <typename G>
void cpu_register_blocked(G &g, const Target &target, int rows = 8, bool unroll_channels = false) {
    const int lanes = target.natural_vector_size<float>();
    const int kb = lanes / 2;
    Var xo{"xo"}, yo{"yo"}, xi{"xi"}, yi{"yi"}, ko{"ko"}, ki{"ki"};
    auto &x = g.x, &y = g.y, &k = g.k;
    auto &r = g.r;
    auto tile_out = [&](Stage s, TailStrategy k_tail) {
        s.split(k, ko, ki, kb, k_tail)
            .split(x, xo, xi, lanes / 2, TailStrategy::GuardWithIf)
            .split(y, yo, yi, rows, TailStrategy::GuardWithIf)
            .reorder(xi, ki, ko, xo, yi, yo)
            .vectorize(xi)
            .unroll(ki)
            .parallel(yo);
    };
    if constexpr (std::is_same_v<G, ConvReluPool>) {
        tile_out(g.out.specialize(g.weights.dim(3).extent() >= kb), TailStrategy::ShiftInwards);
        tile_out(g.out, TailStrategy::GuardWithIf);
    } else {  // K is a constant (ConvReluPoolConst)
        tile_out(g.out, g.filters >= kb ? TailStrategy::ShiftInwards : TailStrategy::GuardWithIf);
    }
    g.padded.compute_at(g.out, yi).store_at(g.out, yo).vectorize(g.padded.args()[0], lanes,
                                                                 TailStrategy::GuardWithIf);
    conv::cpu_register_tile(g.acc, r, x, y, k, LoopLevel(g.out, ko), lanes, kb);
    // ConvReluPoolConst: the channels and the channel blocks unrolled too, so that every weight
    // index is a constant, i.e. one scalar parameter (not a select over all of them).
    if (unroll_channels) {
        g.acc.update().unroll(r.z);
        g.out.unroll(ko);
    }
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
    if (!target.has_gpu_feature()) return cpu_register_blocked(g, target, 8, unroll_channels);
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
