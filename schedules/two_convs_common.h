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

// One layer's output in its own loop nest. CUDA: thread tiles with acc in registers; with
// `shared_weights`, each block first copies its kb x C x 3 x 3 weights into shared memory
// (conv::weights_in_shared), so that a tap's kb weights are kb/4 broadcast 16-byte loads. CPU:
// rows of all channels in parallel, x vectorized, acc per vector of the output.
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
        const int lanes = target.natural_vector_size<float>();
        Var yk{"yk"};
        out.vectorize(x, lanes, TailStrategy::GuardWithIf).fuse(y, k, yk).parallel(yk);
        l.acc.compute_at(out, x).vectorize(x);
        l.acc.update().vectorize(x).reorder(x, y, r.x, r.y, r.z).unroll(r.x).unroll(r.y);
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
    separate(g, target, t);
    g.out2.compute_with(g.out1, target.has_gpu_feature() ? conv::thread_var() : g.x);
}

}  // namespace fuselab::two_convs
