// separate: out1 and out2 in their own loop nests. CUDA: 2 kernels; x and y are each read
// once either way: fusing saves only a launch.
// Measured 2026-12-01 (results/runs/2026-12-01-h200-s8, -cpu-s8): H200: 268435456 1005.5 us,
// 268435456 1006.9 us; 2-core EPYC (Zen 5): 16777216 5265.9 us, 16777216 8669.8 us.
// summary: one kernel per output (x and y each read once either way)
#include "branches_common.h"

namespace fuselab {

FUSELAB_SCHEDULE(BranchesIndep, separate) {
    branches::separate(g, target);
}

}  // namespace fuselab
