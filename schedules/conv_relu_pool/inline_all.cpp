// inline_all: conv and relu inlined into the pool; each pooled output (x, y, k) computes its own
// 2x2 conv window. CUDA: 1 kernel, no intermediate, no recompute (pool windows do not overlap),
// but one thread per (x, y, k): the input patch is re-read for every output channel.
// summary: everything inlined into the pool: one kernel, a thread per pooled (x, y, k)
#include "conv_relu_pool.h"
#include "conv_relu_pool_common.h"

namespace fuselab {

FUSELAB_SCHEDULE(ConvReluPool, inline_all) {
    conv_relu_pool::per_pixel(g, g.out, target);
    conv_relu_pool::acc_in_registers(g, g.out, target);
}

}  // namespace fuselab
