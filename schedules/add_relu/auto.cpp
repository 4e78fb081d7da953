// auto: no hand schedule. The build runs an autoscheduler on the generator's estimates
// (Anderson2021 for CUDA, Adams2019 for the CPU); this file only names the strategy.
// Measured 2026-11-30 (bench/results): H200: 268435456 2524.3 us, 4096 4.7 us; 2-core EPYC (Zen 5),
// 2026-12-01 (bench/results/2026-12-01-cpu-peers): 16777216 4539.2 us.
// summary: autoscheduled (Anderson2021 on CUDA, Adams2019 on CPU)
// autoscheduler: cpu=Adams2019 cuda=Anderson2021
#include "add_relu.h"

namespace fuselab {

FUSELAB_SCHEDULE(AddRelu, auto) {}

}  // namespace fuselab
