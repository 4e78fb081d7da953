// tiled: conv computed inside the pool's GPU thread, as the hand-written fused kernel does, with
// more work per thread: each CUDA thread computes 2 pooled pixels side by side for 8 output
// channels, so the 4x2x8 conv results stay in registers, each weight load feeds 8 multiply-adds
// and each input load (a 6x4 patch per channel) up to 16; relu and the pool are applied in
// registers. 1 kernel, no intermediate in global memory, no recompute. Best under a 112-128
// register cap (fuselab's runtime sets 128; ptxas spills 156 bytes there, cheaper than the
// warps gained): at 255 ptxas takes 234 registers and half as many warps fit. The fastest at
// C3; from C16 up `shared_weights` wins. At C3 it stays short of the hand-written kernel with
// constant-memory weights (hand_const), whose FFMAs take the weights as operands; loaded weights
// (here, and in hand_global) leave 35% of issue slots idle (README, Known limits). CPU:
// conv_relu_pool_common.h's cpu_register_blocked (2 conv rows x 1 vector x 8 channels in zmm
// registers, the padded input in a sliding window of rows): 1.25-1.4x faster than the
// autoscheduler's (Adams2019) form and 62-68% of the FMA peak measured beside it (was 4x slower
// than auto with one accumulator vector a conv pixel).
// Measured 2026-12-01 (results/runs/2026-12-01-h200-s8, -cpu-s8): H200: 3840x2160x3x16 242.1 us,
// 1920x1080x16x16 304.9 us, 256x256x64x64 201.2 us; 2-core EPYC (Zen 5): 1920x1080x3x16 5435.9 us.
// summary: conv+relu in registers inside each pool thread, 2 pooled pixels x 8 channels a thread
#include "conv_relu_pool_common.h"

namespace fuselab {

FUSELAB_SCHEDULE(ConvReluPool, tiled) {
    conv_relu_pool::register_blocked(g, target, /*kb=*/8, /*tx=*/32, /*ty=*/4, /*px=*/2);
}

}  // namespace fuselab
