// separate: out1 and out2 in their own loop nests, as two framework ops would run. CUDA: 2 kernels
// (the unfused baseline), each thread 2 x 4 pixels x 8 channels of one layer (64 accumulators in
// registers; each weight load feeds 8 multiply-adds, each input load up to 8), 32x4 threads a
// block; no intermediate. Each input is read once either way: fusing saves a launch, none of the
// reads. ptxas (sm_90, 128 cap): 128 registers, no spills; the channel loop is 763 SASS
// instructions for 576 FFMA (75%; 72 weight and 24 input loads). CPU: register-blocked, a
// vector x 2 rows x 8 channels a tile (two_convs_common.h, cpu_layer).
// Measured 2026-12-01 (results/runs/2026-12-01-h200-s8, -cpu-s8): H200: 1920x1080x16x16 650.3 us,
// 64x64x16x16 72.3 us, 1920x1080x16x16 651.1 us, 64x64x16x16 74.6 us; 2-core EPYC (Zen 5):
// 960x540x16x16 12.0 ms, 960x540x16x16 12.7 ms.
// summary: one kernel per layer (the unfused baseline)
#include "two_convs_common.h"

namespace fuselab {

FUSELAB_SCHEDULE(TwoConvsIndep, separate) {
    two_convs::separate(g, target, {/*px=*/2, /*py=*/4, /*kb=*/8, /*tx=*/32, /*ty=*/4});
}

}  // namespace fuselab
