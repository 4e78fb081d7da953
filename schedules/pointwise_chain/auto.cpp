// auto: no hand schedule. The build runs an autoscheduler on the generator's estimates
// (Anderson2021 for CUDA, Adams2019 for the CPU); this file only names the strategy.
// Measured 2026-12-01 (results/runs/2026-12-01-h200-s8, -cpu-s8): H200: 268435456 2525.2 us, 65536
// 4.6 us; 2-core EPYC (Zen 5): 16777216 9576.2 us.
// summary: autoscheduled (Anderson2021 on CUDA, Adams2019 on CPU)
// autoscheduler: cpu=Adams2019 cuda=Anderson2021
#include "pointwise_chain.h"

namespace fuselab {

FUSELAB_SCHEDULE(PointwiseChain, auto) {}

}  // namespace fuselab
