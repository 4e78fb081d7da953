// fused: all ten operators inlined into one kernel; every intermediate lives in registers.
// CUDA: 1 kernel, no intermediate, 2 x 4N bytes. No recompute.
// summary: all ten operators in one kernel
#include "pointwise_chain_common.h"

namespace fuselab {

FUSELAB_SCHEDULE(PointwiseChain, fused) { pointwise_chain::roots_at(g, target, {}); }

}  // namespace fuselab
