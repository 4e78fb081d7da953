// relu_inlined: relu is folded into the pool's reads of conv; conv stays at root. CUDA: 2 kernels,
// 1 intermediate (conv, W x H x K floats). No recompute.
// Measured 2026-12-01 (results/runs/2026-12-01-h200-s8, -cpu-s8): H200: 3840x2160x3x16 1838.3 us,
// 1920x1080x16x16 1788.4 us, 256x256x64x64 722.1 us; 2-core EPYC (Zen 5): 1920x1080x3x16 98.3 ms.
// summary: relu folded into the pool; conv at root: two kernels, one intermediate
#include "conv_relu_pool.h"
#include "conv_relu_pool_common.h"

namespace fuselab {

FUSELAB_SCHEDULE(ConvReluPool, relu_inlined) {
    g.conv.compute_root();
    conv_relu_pool::per_pixel(g, g.conv, target);
    conv_relu_pool::per_pixel(g, g.out, target);
    conv_relu_pool::acc_in_registers(g, g.conv, target);
}

}  // namespace fuselab
