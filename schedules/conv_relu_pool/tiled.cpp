// tiled: conv computed inside the pool's GPU thread, as the hand-written fused kernel does: one
// thread per pooled pixel and 16 output channels, the 2x2x16 conv results in registers, the
// input patch read once per thread and used for all 16 channels; relu inlined. CUDA: 1 kernel,
// no intermediate in global memory, no recompute.
// Measured 2026-11-30 (bench/results): H200: 3840x2160x3x16 362.1 us, 1920x1080x16x16 424.5 us,
// 256x256x64x64 229.4 us; 2-core EPYC: 1920x1080x3x16 44.9 ms.
// summary: conv+relu in registers inside each pool thread, 16 channels a thread
#include "conv_relu_pool_common.h"

namespace fuselab {

FUSELAB_SCHEDULE(ConvReluPool, tiled) {
    conv_relu_pool::register_blocked(g, target, 16);
}

}  // namespace fuselab
