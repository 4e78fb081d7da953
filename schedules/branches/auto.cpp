// auto: no hand schedule; Anderson2021 (CUDA) or Adams2019 (CPU) on the estimates. None of
// Halide's autoschedulers emits compute_with, so this is the two-kernel form at best.
// summary: autoscheduled (Anderson2021 on CUDA, Adams2019 on CPU)
// autoscheduler: cpu=Adams2019 cuda=Anderson2021
#include "branches.h"

namespace fuselab {

FUSELAB_SCHEDULE(Branches, auto) {}

}  // namespace fuselab
