// horizontal: out2 computed with out1 (compute_with) in one loop nest. CUDA: 1 kernel, each
// thread loads x once for both outputs: 3 x 4N bytes.
// Measured 2026-12-01 (results/runs/2026-12-01-h200-s8, -cpu-s8): H200: 268435456 771.8 us; 2-core
// EPYC (Zen 5): 16777216 5918.7 us.
// summary: both outputs from one kernel (compute_with)
#include "branches_common.h"

namespace fuselab {

FUSELAB_SCHEDULE(Branches, horizontal) {
    branches::horizontal(g, target);
}

}  // namespace fuselab
