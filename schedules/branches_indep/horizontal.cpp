// horizontal: out2 computed with out1 (compute_with) in one loop nest. CUDA: 1 kernel, each
// thread loads x and y and writes both outputs: the same 4 x 4N bytes as separate, one launch
// fewer.
// Measured 2026-11-30 (bench/results): H200: 268435456 1007.1 us; 2-core EPYC (Zen 5), 2026-12-01
// (bench/results/2026-12-01-cpu-peers): 16777216 3700.0 us.
// summary: both outputs from one kernel (compute_with)
#include "branches_common.h"

namespace fuselab {

FUSELAB_SCHEDULE(BranchesIndep, horizontal) {
    branches::horizontal(g, target);
}

}  // namespace fuselab
