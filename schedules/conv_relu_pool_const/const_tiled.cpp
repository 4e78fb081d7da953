// const_tiled: conv_relu_pool's fused kernel (conv and relu in registers inside each pool thread)
// for the scalar-weights generator: one CUDA thread per pooled pixel for all 16 output channels
// (64 accumulators, the hand-written hand_const kernel's shape), 64x2 threads a block, the 3 x 3
// x C taps and the channels unrolled, so that every weight is a constant index into the scalars,
// i.e. one kernel parameter in the constant bank: ptxas reads them once a warp with uniform
// ULDC/ULDC.64 and the FFMAs take them as uniform-register operands (no load of a weight from
// memory, no general register for it). The block loops are not partitioned (never_partition_all):
// every block runs the one version with the zero padding's selects, which ptxas schedules into
// 2451 SASS instructions a thread (1728 FFMA, 290 uniform constant loads, 48 LDG, 96 FSEL, 16 STG)
// where the partitioned interior version takes 2753 (746 uniform constant loads;
// const_partitioned). hand_const's interior: 2199 (253 uniform loads). 1 kernel, no intermediate,
// no recompute; the 4 x 4 x C input patch of a pooled pixel loaded once a thread. ptxas (sm_90, 128
// cap): 128 registers, no spills, no stack. CPU: conv_relu_pool's tiled CPU form with the channels
// and channel blocks unrolled, so that each weight is one scalar there too. Slower than `tiled`
// on the H200 (below), against a prediction of 205-215 us made for the scalars in [c][ky][kx][k]
// order (a tap's 16 weights adjacent, read in ULDC.64 pairs); the runtime passes them in the
// weights' dense order (kx fastest), which is what ran. Not yet measured in the other order.
// Measured 2026-12-01 (results/runs/2026-12-01-h200-s8, -cpu-s8): H200: 3840x2160x3x16 362.4 us;
// 2-core EPYC (Zen 5): 1920x1080x3x16 9735.0 us.
// summary: fused conv+relu+pool, weights as kernel parameters, 1 pooled px x 16 channels a thread
#include "conv_relu_pool_common.h"

namespace fuselab {

FUSELAB_SCHEDULE(ConvReluPoolConst, const_tiled) {
    const int K = g.filters;
    conv_relu_pool::register_blocked(g, target, /*kb=*/K, /*tx=*/64, /*ty=*/2, /*px=*/1,
                                     /*shared_weights=*/false, /*unroll_channels=*/true);
    if (target.has_gpu_feature()) g.out.never_partition_all();
}

}  // namespace fuselab
