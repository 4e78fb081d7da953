// inline_all: conv and relu inlined into the pool; each pooled output (x, y, k) computes its own
// 2x2 conv window. CUDA: 1 kernel, no intermediate, no recompute (pool windows do not overlap),
// but one thread per (x, y, k): the input patch is re-read for every output channel.
// Measured 2026-12-01 (results/runs/2026-12-01-h200-s8, -cpu-s8): H200: 3840x2160x3x16 4347.7 us,
// 1920x1080x16x16 5589.9 us, 256x256x64x64 2825.3 us; 2-core EPYC (Zen 5): 1920x1080x3x16 74.0 ms.
// summary: everything inlined into the pool: one kernel, a thread per pooled (x, y, k)
#include "conv_relu_pool.h"
#include "conv_relu_pool_common.h"

namespace fuselab {

FUSELAB_SCHEDULE(ConvReluPool, inline_all) {
    conv_relu_pool::per_pixel(g, g.out, target);
    conv_relu_pool::acc_in_registers(g, g.out, target);
}

}  // namespace fuselab
