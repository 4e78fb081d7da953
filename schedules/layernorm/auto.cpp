// auto: no hand schedule. The build runs Anderson2021 on the generator's estimates (N = 4096, M =
// 16384), through fuselab_guarded, which makes its RoundUp tails GuardWithIf; this file only names
// the strategy. Its CUDA schedule computes each statistic in its own kernels, a thread a row, with
// the statistics through global memory. float32 only: its bfloat16 schedule failed to launch at N =
// 65536 and 262144 (-s10). No CPU form: Adams2019's schedule was correct but took about 2.5 minutes
// of autoscheduling a variant, which CI cannot afford, and Mullapudi2016's (a second) sums each row
// serially in float32, which missed the float32 bound at N = 262147 (rmsnorm_residual, layernorm;
// tried 2026-12-02).
// Where it wins (the committed tables; per-N figures there, not here): on the H200 it is fuselab's
// best at none of layernorm's 18 row cells (it builds float32 only; results/h200.md, s38's
// records). It has no CPU form (targets: cuda), so none of results/cpu.md's cells.
// summary: autoscheduled by Anderson2021 (CUDA only: Adams2019 took 2.5 min a variant here)
// autoscheduler: cuda=Anderson2021
// targets: cuda
// dtypes: float32
#include "layernorm.h"

namespace fuselab {

FUSELAB_SCHEDULE(Layernorm, auto) {}

}  // namespace fuselab
