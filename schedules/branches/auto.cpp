// auto: no hand schedule; Anderson2021 (CUDA) or Adams2019 (CPU) on the estimates. None of
// Halide's autoschedulers emits compute_with, so this is the two-kernel form at best.
// Measured 2026-12-01 (results/runs/2026-12-01-h200-s8, -cpu-s8): H200: 268435456 5048.4 us;
// 2-core EPYC (Zen 5): 16777216 8886.2 us.
// summary: autoscheduled (Anderson2021 on CUDA, Adams2019 on CPU)
// autoscheduler: cpu=Adams2019 cuda=Anderson2021
#include "branches.h"

namespace fuselab {

FUSELAB_SCHEDULE(Branches, auto) {}

}  // namespace fuselab
