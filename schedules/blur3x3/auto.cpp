// auto: no hand schedule. The build runs an autoscheduler on the generator's estimates
// (Anderson2021 for CUDA, Adams2019 for the CPU); this file only names the strategy.
// Measured 2026-12-01 (results/runs/2026-12-01-h200-s8, -cpu-s8): H200: 8192x8192 272.1 us; 2-core
// EPYC (Zen 5): 4096x4096 4197.5 us.
// summary: autoscheduled (Anderson2021 on CUDA, Adams2019 on CPU)
// autoscheduler: cpu=Adams2019 cuda=Anderson2021
#include "blur3x3.h"

namespace fuselab {

FUSELAB_SCHEDULE(Blur3x3, auto) {}

}  // namespace fuselab
