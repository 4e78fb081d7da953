// horizontal: out2 computed with out1 (compute_with at the thread), one loop nest. CUDA: 1 kernel;
// each thread computes 4 pixels x 8 channels of out1, then the same of out2 (32 accumulators at a
// time), 32x4 threads a block. One launch instead of two; no intermediate. ptxas (sm_90, 128
// cap): 128 registers, no spills. CPU: both outputs per vector of a row.
// Measured: not yet on the H200.
// summary: both layers in one kernel (compute_with), each thread both layers' tiles in turn
#include "two_convs_common.h"

namespace fuselab {

FUSELAB_SCHEDULE(TwoConvs, horizontal) {
    two_convs::horizontal(g, target);
}

}  // namespace fuselab
