// shared_weights_k8: `shared_weights` with 1 pooled pixel x 8 channels a thread (32 accumulators,
// 80 registers, so more warps an SM) in blocks of 64x2 threads: for C64 K64, whose one wave of
// 64-channel reductions is latency-bound at 16 warps an SM, twice the blocks (1024) and more
// warps to hide the shared and global loads; each input load then feeds 8 multiply-adds instead
// of 16, and each block reads its input tile for half the channels. 1 kernel, no intermediate.
// ptxas (sm_90, 128 cap): 80 registers (K >= 8 kernel; 114 for the guarded K < 8 one), no spills.
// Measured 2026-12-01 (results/runs/2026-12-01-h200-s8, -cpu-s8): H200: 3840x2160x3x16 298.2 us,
// 1920x1080x16x16 317.3 us, 256x256x64x64 160.3 us; 2-core EPYC (Zen 5): 1920x1080x3x16 5663.1 us.
// summary: shared_weights with 1 pooled px x 8 channels a thread (more warps)
#include "conv_relu_pool_common.h"

namespace fuselab {

FUSELAB_SCHEDULE(ConvReluPool, shared_weights_k8) {
    conv_relu_pool::register_blocked(g, target, /*kb=*/8, /*tx=*/64, /*ty=*/2, /*px=*/1,
                                     /*shared_weights=*/true);
}

}  // namespace fuselab
