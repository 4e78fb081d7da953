// separate: out1 and out2 in their own loop nests. CUDA: 2 kernels; the shared input x is
// read twice (4 x 4N bytes against the fused 3 x 4N).
// Measured 2026-12-01 (results/runs/2026-12-01-h200-s8, -cpu-s8): H200: 268435456 1005.5 us;
// 2-core EPYC (Zen 5): 16777216 5265.9 us.
// summary: one kernel per output: x read twice
#include "branches_common.h"

namespace fuselab {

FUSELAB_SCHEDULE(Branches, separate) {
    branches::separate(g, target);
}

}  // namespace fuselab
