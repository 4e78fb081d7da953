// horizontal: out2 computed with out1 (compute_with at the thread), one loop nest. CUDA: 1 kernel;
// each thread computes 4 x 2 pixels x 4 channels of out1, then the same of out2 (32 accumulators a
// layer: with 64, ptxas interleaves the two layers' tiles and spills 260-370 bytes), 32x4 threads a
// block. One launch instead of two, no intermediate; the second layer's tile reads the shared input
// from L1 and L2, not DRAM. ptxas (sm_90, 128 cap): 128 registers, no spills; each layer's channel
// loop is 405 SASS instructions for 288 FFMA (71%; 36 weight and 24 input loads). CPU: both
// outputs per register tile (cpu_layer, compute_with at the tile).
// Measured 2026-12-01 (results/runs/2026-12-01-h200-s8, -cpu-s8): H200: 1920x1080x16x16 781.7 us,
// 64x64x16x16 30.7 us; 2-core EPYC (Zen 5): 960x540x16x16 19.3 ms.
// summary: both layers in one kernel (compute_with), each thread both layers' tiles in turn
#include "two_convs_common.h"

namespace fuselab {

FUSELAB_SCHEDULE(TwoConvs, horizontal) {
    two_convs::horizontal(g, target, {/*px=*/4, /*py=*/2, /*kb=*/4, /*tx=*/32, /*ty=*/4});
}

}  // namespace fuselab
