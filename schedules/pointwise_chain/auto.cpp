// auto: no hand schedule. The build runs an autoscheduler on the generator's estimates
// (Anderson2021 for CUDA, Adams2019 for the CPU); this file only names the strategy.
// summary: autoscheduled (Anderson2021 on CUDA, Adams2019 on CPU)
// autoscheduler: cpu=Adams2019 cuda=Anderson2021
#include "pointwise_chain.h"

namespace fuselab {

FUSELAB_SCHEDULE(PointwiseChain, auto) {}

}  // namespace fuselab
