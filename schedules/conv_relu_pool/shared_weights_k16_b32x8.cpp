// shared_weights_k16_b32x8: `shared_weights`' thread shape (16 output channels x 1 pooled pixel a
// thread, 64 accumulators; each input load feeds 16 multiply-adds) in blocks of 32x8 threads
// instead of 64x2: a block covers 32 x 8 pooled pixels, 66 x 18 input columns and rows a channel
// (fewer halo rows a pixel than 130 x 6), for 16 channels. At C64 K64 256x256 it beat every
// other block shape tried in the seventh session's tuning call (142.9 us against
// shared_weights_b32x8's 146.9, shared_weights' 152.2, 8 ch x 2 px in 32x16 blocks 144.2 and in
// 16x8 153.4; bench/results/2026-12-01-h200-s7-tuning); slower than `tiled` at C3 and than
// `shared_weights` at C16. 1 kernel, no intermediate. ptxas (sm_90, 128 cap): 128 registers, no
// spills.
// Measured 2026-12-01 (bench/results/2026-12-01-h200-s7, -cpu-s7): H200: 3840x2160x3x16 259.3 us,
// 1920x1080x16x16 290.9 us, 256x256x64x64 143.2 us; 2-core EPYC (Zen 5): 1920x1080x3x16 6278.8 us.
// summary: shared_weights with 16 channels x 1 pooled px a thread, 32x8 threads a block
#include "conv_relu_pool_common.h"

namespace fuselab {

FUSELAB_SCHEDULE(ConvReluPool, shared_weights_k16_b32x8) {
    conv_relu_pool::register_blocked(g, target, /*kb=*/16, /*tx=*/32, /*ty=*/8, /*px=*/1,
                                     /*shared_weights=*/true);
}

}  // namespace fuselab
