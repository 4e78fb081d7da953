// shared_weights_k16_b32x16: `shared_weights`' thread shape (16 output channels x 1 pooled pixel a
// thread, 64 accumulators; each input load feeds 16 multiply-adds) in blocks of 32x16 threads
// instead of 64x2: a block covers 32 x 16 pooled pixels, 66 x 34 input columns and rows a channel
// (fewer halo rows a pixel than 130 x 6), for 16 channels, and its 16 x C x 3 x 3 weights are
// copied to shared memory once for 512 threads. The best C64 K64 shape of two tuning calls: 139.3
// us at 256x256 in the eighth session's, against 32x8 blocks 143.6, 16x16 144.9, 64x4 144.1 and
// 32x8 with the channel loop unrolled by 2 146.5 (264 bytes of spills); shared_weights 153.5
// (results/runs/2026-12-01-h200-s8, tuning/). Slower than `tiled` at C3 and than
// `shared_weights` at C16. 1 kernel, no intermediate. ptxas (sm_90, 128 cap): 128 registers, no
// spills.
// Measured 2026-12-01 (results/runs/2026-12-01-h200-s8, -cpu-s8): H200: 3840x2160x3x16 261.8 us,
// 1920x1080x16x16 285.0 us, 256x256x64x64 138.8 us; 2-core EPYC (Zen 5): 1920x1080x3x16 5439.5 us.
// summary: shared_weights with 16 channels x 1 pooled px a thread, 32x16 threads a block
#include "conv_relu_pool_common.h"

namespace fuselab {

FUSELAB_SCHEDULE(ConvReluPool, shared_weights_k16_b32x16) {
    conv_relu_pool::register_blocked(g, target, /*kb=*/16, /*tx=*/32, /*ty=*/16, /*px=*/1,
                                     /*shared_weights=*/true);
}

}  // namespace fuselab
