// shared_weights: `tiled`'s fusion (conv and relu in registers inside each pool thread), with
// each block's weights first copied into shared memory: one CUDA thread per pooled pixel for 16
// output channels (64 accumulators, the hand-written kernel's shape), 64x2 threads a block. A
// tap's 16 weights come as four broadcast 16-byte shared loads instead of 16 global loads (36
// loads a channel instead of 144), and a block covers all 16 channels of K16 so the input is
// read once. 1 kernel, no intermediate in global memory; the copy is C x 144 floats a block.
// The barrier after the copy stops Halide from splitting off guard-free interior blocks, so the
// zero padding's selects stay in the loop (699 instructions a channel against tiled's 703, with
// 52 loads against 96). Wins from C16 up; at C3 the copy and barrier do not pay (see tiled). CPU:
// tiled's loop nest (no shared memory there).
// Measured 2026-12-01 (results/runs/2026-12-01-h200-s8, -cpu-s8): H200: 3840x2160x3x16 253.3 us,
// 1920x1080x16x16 283.4 us, 256x256x64x64 153.1 us; 2-core EPYC (Zen 5): 1920x1080x3x16 5474.3 us.
// summary: tiled with the weights in shared memory, 1 pooled pixel x 16 channels a thread
#include "conv_relu_pool_common.h"

namespace fuselab {

FUSELAB_SCHEDULE(ConvReluPool, shared_weights) {
    conv_relu_pool::register_blocked(g, target, /*kb=*/16, /*tx=*/64, /*ty=*/2, /*px=*/1,
                                     /*shared_weights=*/true);
}

}  // namespace fuselab
