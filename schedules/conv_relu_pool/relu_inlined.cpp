// relu_inlined: relu is folded into the pool's reads of conv; conv stays at root. CUDA: 2 kernels,
// 1 intermediate (conv, W x H x K floats). No recompute.
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
