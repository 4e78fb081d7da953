// separate: out1 and out2 in their own loop nests, as two framework ops would run. CUDA: 2 kernels
// (the unfused baseline), each thread 4 pixels x 8 channels of one layer (32 accumulators in
// registers, each weight load feeding 4 multiply-adds), 32x4 threads a block; no intermediate.
// Each input is read once either way: fusing saves a launch only. ptxas (sm_90, 128 cap): 128
// registers, no spills. CPU: rows of all channels in parallel, x vectorized.
// Measured: not yet on the H200.
// summary: one kernel per layer (the unfused baseline)
#include "two_convs_common.h"

namespace fuselab {

FUSELAB_SCHEDULE(TwoConvsIndep, separate) {
    two_convs::separate(g, target);
}

}  // namespace fuselab
