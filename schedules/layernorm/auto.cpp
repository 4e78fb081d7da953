// auto: no hand schedule. The build runs an autoscheduler on the generator's estimates
// (N = 4096, M = 16384): Anderson2021 for CUDA (through fuselab_guarded, which makes its RoundUp
// tails GuardWithIf), Adams2019 for the CPU; this file only names the strategy. Both run on these
// pipelines (checked through the JIT: Adams2019's CPU schedule is correct, about 2.5 min of
// autoscheduling a variant here; Anderson2021's CUDA schedule computes each statistic in its own
// kernels, a thread a row, with the statistics through global memory).
// Measured: not timed yet (the H200 run s10 ran out of budget before layernorm); its CUDA forms
// passed the tests and the sweep there (results/runs/2026-12-02-h200-s10/b).
// summary: autoscheduled by Anderson2021 (CUDA only: Adams2019 took 2.5 min a variant here)
// autoscheduler: cuda=Anderson2021
// targets: cuda
// dtypes: float32
#include "layernorm.h"

namespace fuselab {

FUSELAB_SCHEDULE(Layernorm, auto) {}

}  // namespace fuselab
