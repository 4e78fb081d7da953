// auto: no hand schedule. The build runs an autoscheduler on the generator's estimates
// (N = 4096, M = 16384): Anderson2021 for CUDA (through fuselab_guarded, which makes its RoundUp
// tails GuardWithIf), Adams2019 for the CPU; this file only names the strategy. Both run on these
// pipelines (checked through the JIT: Adams2019's CPU schedule is correct, about 2.5 min of
// autoscheduling a variant here; Anderson2021's CUDA schedule computes each statistic in its own
// kernels, a thread a row, with the statistics through global memory).
// Measured 2026-12-02 (results/runs/2026-12-02-h200-s11, -cpu-s11), at the minimum bytes, 2^26
// elements a call on the H200 and 2^22 on the CPU, by N (*: the fastest strategy there): H200 TB/s:
// float32 256 0.72, 1k 0.73, 4k 0.66, 16k 0.23, 64k 0.06, 256k 0.01; CPU: not built.
// summary: autoscheduled by Anderson2021 (CUDA only: Adams2019 took 2.5 min a variant here)
// autoscheduler: cuda=Anderson2021
// targets: cuda
// dtypes: float32
#include "layernorm.h"

namespace fuselab {

FUSELAB_SCHEDULE(Layernorm, auto) {}

}  // namespace fuselab
