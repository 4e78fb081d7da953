// auto: no hand schedule. The build runs an autoscheduler on the generator's estimates
// (Anderson2021 for CUDA, Adams2019 for the CPU); this file only names the strategy.
// Measured 2026-12-01 (bench/results/2026-12-01-h200-s7, -cpu-s7): H200: k2 8192x8192 218.6 us, k4
// 8192x8192 436.6 us, k8 8192x8192 872.3 us; 2-core EPYC (Zen 5): k2 4096x4096 4852.3 us, k4
// 4096x4096 7887.3 us, k8 4096x4096 10.3 ms.
// summary: autoscheduled (Anderson2021 on CUDA, Adams2019 on CPU)
// autoscheduler: cpu=Adams2019 cuda=Anderson2021
#include "stencil_chain.h"

namespace fuselab {

FUSELAB_SCHEDULE(StencilChain, auto) {}

}  // namespace fuselab
