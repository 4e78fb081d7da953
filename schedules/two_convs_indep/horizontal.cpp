// horizontal: out2 computed with out1 (compute_with at the thread), one loop nest. CUDA: 1 kernel;
// each thread computes 4 x 2 pixels x 4 channels of out1, then the same of out2 (32 accumulators a
// layer: with 64, ptxas interleaves the two layers' tiles and spills 260-370 bytes), 32x4 threads a
// block. One launch instead of two, no intermediate; the inputs are independent, so no read is
// saved. ptxas (sm_90, 128 cap): 128 registers, no spills; each layer's channel loop is 405 SASS
// instructions for 288 FFMA (71%; 36 weight and 24 input loads). CPU: both outputs per vector of a
// row.
// Measured: not yet on the H200 (prediction: within a few % of separate at 1920x1080, compute-bound
// either way; at 64x64 one launch fewer, about 4 us less). 2-core EPYC (one run, separate 83.9):
// 960x540x16x16 109.0 ms.
// summary: both layers in one kernel (compute_with), each thread both layers' tiles in turn
#include "two_convs_common.h"

namespace fuselab {

FUSELAB_SCHEDULE(TwoConvsIndep, horizontal) {
    two_convs::horizontal(g, target, {/*px=*/4, /*py=*/2, /*kb=*/4, /*tx=*/32, /*ty=*/4});
}

}  // namespace fuselab
