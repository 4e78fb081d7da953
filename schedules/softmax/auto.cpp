// auto: no hand schedule. The build runs an autoscheduler on the generator's estimates
// (N = 4096, M = 16384): Anderson2021 for CUDA (through fuselab_guarded, which makes its RoundUp
// tails GuardWithIf), Adams2019 for the CPU; this file only names the strategy. Both run on these
// pipelines (checked through the JIT: Adams2019's CPU schedule is correct, about 2.5 min of
// autoscheduling a variant here; Anderson2021's CUDA schedule computes each statistic in its own
// kernels, a thread a row, with the statistics through global memory).
// Measured (H200, 2^26 elements, results/runs/2026-12-02-h200-s10/c): float32: N=256 746 us, N=4096
// 811 us, N=262144 37160 us; bfloat16: N=4096 750 us, N=262144 27644 us.
// summary: autoscheduled by Anderson2021 (CUDA only: Adams2019 took 2.5 min a variant here)
// autoscheduler: cuda=Anderson2021
// targets: cuda
// dtypes: float32
#include "softmax.h"

namespace fuselab {

FUSELAB_SCHEDULE(Softmax, auto) {}

}  // namespace fuselab
