// shared_weights_b32x8: `shared_weights` with `tiled`'s thread shape (2 pooled pixels x 8 channels
// a thread, 64 accumulators) in blocks of 32x8 threads: a block covers 64 x 8 pooled pixels
// (130 x 18 input columns and rows a channel, against 130 x 6 for 64x2 blocks: fewer halo rows a
// pixel), and each weight load (a broadcast 16-byte shared load of 4 channels) feeds 8
// multiply-adds. For C64 K64, where one wave of 512 blocks of 128 threads runs the whole
// 64-channel reduction latency-bound: 147.6 us against shared_weights' 152.3 in the fourth
// session's tuning (x_ws328, results/runs/2026-11-30-h200-s4-tuning), slower at C3 and C16.
// 1 kernel, no intermediate. ptxas (sm_90, 128 cap): 128 registers, no spills.
// Measured 2026-12-01 (results/runs/2026-12-01-h200-s8, -cpu-s8): H200: 3840x2160x3x16 269.3 us,
// 1920x1080x16x16 301.2 us, 256x256x64x64 147.7 us; 2-core EPYC (Zen 5): 1920x1080x3x16 5503.3 us.
// summary: shared_weights with 2 pooled px x 8 channels a thread, 32x8 threads a block
#include "conv_relu_pool_common.h"

namespace fuselab {

FUSELAB_SCHEDULE(ConvReluPool, shared_weights_b32x8) {
    conv_relu_pool::register_blocked(g, target, /*kb=*/8, /*tx=*/32, /*ty=*/8, /*px=*/2,
                                     /*shared_weights=*/true);
}

}  // namespace fuselab
