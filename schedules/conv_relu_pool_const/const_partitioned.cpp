// const_partitioned: `const_tiled` with Halide's usual loop partitioning: blocks whose patches lie
// inside the image run a version without the zero padding's selects (fewer address computations:
// 27 IMAD.WIDE against 64), but ptxas hoists its 48 loads and then reloads the uniform weight
// registers more often: 2753 SASS instructions a thread in that version (1728 FFMA, 441 ULDC.64 +
// 305 ULDC) against const_tiled's 2451. 1 kernel, no intermediate. ptxas (sm_90, 128 cap): 128
// registers, no spills.
// Measured 2026-12-01 (results/runs/2026-12-01-h200-s8, -cpu-s8): H200: 3840x2160x3x16 334.9 us;
// 2-core EPYC (Zen 5): 1920x1080x3x16 9719.7 us.
// summary: const_tiled with the interior blocks partitioned off (no padding selects there)
#include "conv_relu_pool_common.h"

namespace fuselab {

FUSELAB_SCHEDULE(ConvReluPoolConst, const_partitioned) {
    const int K = g.filters;
    conv_relu_pool::register_blocked(g, target, /*kb=*/K, /*tx=*/64, /*ty=*/2, /*px=*/1,
                                     /*shared_weights=*/false, /*unroll_channels=*/true);
}

}  // namespace fuselab
