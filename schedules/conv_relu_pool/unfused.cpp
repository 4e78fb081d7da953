// unfused: conv, relu and pool each at root, as three frameworks ops would run. CUDA: 3 kernels,
// 2 intermediates of W x H x K floats each (conv and relu), each written once and read back.
// The 3x3xC reduction stays in registers inside the conv kernel.
// Measured 2026-12-01 (results/runs/2026-12-01-h200-s8, -cpu-s8): H200: 3840x2160x3x16 2279.9 us,
// 1920x1080x16x16 1904.5 us, 256x256x64x64 735.8 us; 2-core EPYC (Zen 5): 1920x1080x3x16 146.8 ms.
// summary: conv, relu and pool at root: three kernels, two full-size intermediates
#include "conv_relu_pool.h"
#include "conv_relu_pool_common.h"

namespace fuselab {

FUSELAB_SCHEDULE(ConvReluPool, unfused) {
    g.conv.compute_root();
    g.relu.compute_root();
    conv_relu_pool::per_pixel(g, g.conv, target);
    conv_relu_pool::per_pixel(g, g.relu, target);
    conv_relu_pool::per_pixel(g, g.out, target);
    conv_relu_pool::acc_in_registers(g, g.conv, target);
}

}  // namespace fuselab
