// auto: no hand schedule. The build runs an autoscheduler on the generator's estimates
// (Anderson2021 for CUDA, Adams2019 for the CPU); this file only names the strategy.
// Measured 2026-11-30 (bench/results): H200: k2 8192x8192 277.3 us, k4 8192x8192 496.2 us, k8
// 8192x8192 922.8 us; 2-core EPYC (Zen 5), 2026-12-01 (bench/results/2026-12-01-cpu-peers): k2
// 4096x4096 4794.1 us, k4 4096x4096 6897.7 us, k8 4096x4096 26.8 ms.
// summary: autoscheduled (Anderson2021 on CUDA, Adams2019 on CPU)
// autoscheduler: cpu=Adams2019 cuda=Anderson2021
#include "stencil_chain.h"

namespace fuselab {

FUSELAB_SCHEDULE(StencilChain, auto) {}

}  // namespace fuselab
