// grouped5: two groups of five operators (s5 and out at root). CUDA: 2 kernels, 1 intermediate
// of N floats: 4 x 4N bytes.
// summary: two groups of five: two kernels, one intermediate
#include "pointwise_chain_common.h"

namespace fuselab {

FUSELAB_SCHEDULE(PointwiseChain, grouped5) { pointwise_chain::roots_at(g, target, {5}); }

}  // namespace fuselab
