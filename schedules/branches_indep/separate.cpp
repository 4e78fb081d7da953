// separate: out1 and out2 in their own loop nests. CUDA: 2 kernels; x and y are each read once either way: fusing saves only a launch.
// summary: one kernel per output
#include "branches_common.h"

namespace fuselab {

FUSELAB_SCHEDULE(BranchesIndep, separate) { branches::separate(g, target); }

}  // namespace fuselab
