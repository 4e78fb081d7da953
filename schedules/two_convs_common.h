// The strategies of two_convs and two_convs_indep: two 3x3 conv + ReLU layers as two kernels, or
// as one kernel computing both in turn (compute_with), the weights from global or shared memory.
#pragma once

#include "conv_common.h"
#include "two_convs.h"

namespace fuselab::two_convs {

using namespace Halide;

// The register tile of a CUDA thread: px x py pixels x kb channels of one layer (64
// accumulators by default: each weight load feeds px x py multiply-adds, each input load up to
// kb); tx x ty threads a block.
struct Tile {
    int px = 4, py = 2, kb = 8, tx = 32, ty = 4;
};

// A layer's CPU form, register-blocked like conv_relu_pool's (conv_relu_pool_common.h): each
// parallel task walks `rows` rows; tiles of one vector of columns x 2 rows x kb = lanes / 2
// output channels accumulate in registers over the 3x3xC taps (each input vector feeds kb FMAs,
// each broadcast weight 2), relu and the bias applied in registers; the channel blocks are the
// innermost loop around a tile, so its input is loaded into L1 once for all K; the zero-padded
// input is copied once per row pair into a sliding window of rows (store_at the task, compute_at
// the row pair), so the tap loads are plain loads from L1. Where K >= kb the channel block shifts
// inwards (`specialize`; compute_with refuses specializations, so `horizontal` keeps the guard).
template <typename O, typename W>
void cpu_layer(O &out, W &weights, ConvLayerFuncs &l, const RDom &r, const Var &x, const Var &y,
               const Var &k, const Target &target, bool specialize, int rows = 8) {
    const int lanes = target.natural_vector_size<float>();
    const int kb = lanes / 2;
    Var xo{"xo"}, xi{"xi"}, yo{"yo"}, yi{"yi"}, yp{"yp"}, ko{"ko"}, ki{"ki"};
    auto tile = [&](Stage s, TailStrategy k_tail) {
        s.split(k, ko, ki, kb, k_tail)
            .split(x, xo, xi, lanes, TailStrategy::GuardWithIf)
            .split(y, yo, yi, rows, TailStrategy::GuardWithIf)
            .split(yi, yi, yp, 2, TailStrategy::GuardWithIf)
            .reorder(xi, yp, ki, ko, xo, yi, yo)
            .vectorize(xi)
            .unroll(yp)
            .unroll(ki)
            .parallel(yo);
    };
    if (specialize) tile(out.specialize(weights.dim(3).extent() >= kb), TailStrategy::ShiftInwards);
    tile(out, TailStrategy::GuardWithIf);
    l.padded.compute_at(out, yi).store_at(out, yo).vectorize(l.padded.args()[0], lanes,
                                                             TailStrategy::GuardWithIf);
    conv::cpu_register_tile(l.acc, r, x, y, k, LoopLevel(out, ko), lanes, kb);
}

// One layer's output in its own loop nest. CUDA: thread tiles with acc in registers; with
// `shared_weights`, each block first copies its kb x C x 3 x 3 weights into shared memory
// (conv::weights_in_shared), so that a tap's kb weights are kb/4 broadcast 16-byte loads. CPU:
// cpu_layer.
template <typename O, typename W>
void layer(O &out, W &weights, ConvLayerFuncs &l, const RDom &r, const Var &x, const Var &y,
           const Var &k, const Target &target, const Tile &t, bool shared_weights) {
    if (target.has_gpu_feature()) {
        // With the weights in shared memory the copy's barrier keeps Halide from partitioning
        // off guard-free blocks, so where K >= kb the channel blocks shift inwards instead (no
        // channel guard; the last block recomputes a few channels).
        if (shared_weights) {
            conv::thread_tiles(out.specialize(weights.dim(3).extent() >= t.kb), x, y, k, t.kb, t.px,
                               t.tx, t.ty, TailStrategy::ShiftInwards, t.py);
        }
        conv::thread_tiles(out, x, y, k, t.kb, t.px, t.tx, t.ty, TailStrategy::GuardWithIf, t.py);
        conv::register_tile(l.acc, r, x, y, k, LoopLevel(out, conv::thread_var()), t.px, t.kb,
                            t.py);
        if (shared_weights) {
            conv::weights_in_shared(weights.in(), LoopLevel(out, conv::block_var()), t.tx, t.ty);
        }
    } else {
        cpu_layer(out, weights, l, r, x, y, k, target, /*specialize=*/true);
    }
}

// Each output its own loop nest: 2 kernels on CUDA.
template <typename G>
void separate(G &g, const Target &target, const Tile &t = {}, bool shared_weights = false) {
    layer(g.out1, g.weights1, g.l1, g.r, g.x, g.y, g.k, target, t, shared_weights);
    layer(g.out2, g.weights2, g.l2, g.r, g.x, g.y, g.k, target, t, shared_weights);
}

// Both outputs in one loop nest, fused at the thread (CPU: at each vector of a row): 1 kernel;
// each thread computes its out1 tile, then its out2 tile of the same pixels (in two_convs the
// second reads the input from L1). Global weights only: compute_with refuses specializations,
// which the shared weights need (without them the channel guard stays on every multiply-add:
// 564 branches for 576 FFMA). (Fusing the two layers' reduction loops as well, one wider
// convolution of 2 x kb channels a thread reading each input value once, is refused by Halide
// 21: compute_with of acc2's update with acc1's at the channel loop needs acc2 computed at
// out1's thread loop, where the fused group's guards leave its realization without a constant
// size, so not in registers.)
template <typename G>
void horizontal(G &g, const Target &target, const Tile &t = {}) {
    if (target.has_gpu_feature()) {
        separate(g, target, t);
        g.out2.compute_with(g.out1, conv::thread_var());
        return;
    }
    cpu_layer(g.out1, g.weights1, g.l1, g.r, g.x, g.y, g.k, target, /*specialize=*/false);
    cpu_layer(g.out2, g.weights2, g.l2, g.r, g.x, g.y, g.k, target, /*specialize=*/false);
    g.out2.compute_with(g.out1, Var("xo"));  // each vector tile of out1, then out2's
}

}  // namespace fuselab::two_convs
