// separate: out1 and out2 in their own loop nests, as two framework ops would run. CUDA: 2 kernels
// (the unfused baseline), each thread 2 x 4 pixels x 8 channels of one layer (64 accumulators in
// registers; each weight load feeds 8 multiply-adds, each input load up to 8), 32x4 threads a
// block; no intermediate. Each input is read once either way: fusing saves a launch, none of the
// reads. ptxas (sm_90, 128 cap): 128 registers, no spills; the channel loop is 763 SASS
// instructions for 576 FFMA (75%; 72 weight and 24 input loads). CPU: rows of all channels in
// parallel, x vectorized.
// Measured: not yet on the H200 (prediction at C16 K16 1920x1080: 540-600 us, issue-bound: 9.6 G
// multiply-adds, 0.40 G warp instructions at ~70% of the issue rate; 64x64: two launches, about 10
// us). 2-core EPYC (one run): 960x540x16x16 83.9 ms.
// summary: one kernel per layer (the unfused baseline)
#include "two_convs_common.h"

namespace fuselab {

FUSELAB_SCHEDULE(TwoConvsIndep, separate) {
    two_convs::separate(g, target, {/*px=*/2, /*py=*/4, /*kb=*/8, /*tx=*/32, /*ty=*/4});
}

}  // namespace fuselab
