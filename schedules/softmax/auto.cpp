// auto: no hand schedule. The build runs Anderson2021 on the generator's estimates (N = 4096, M =
// 16384), through fuselab_guarded, which makes its RoundUp tails GuardWithIf; this file only names
// the strategy. Its CUDA schedule computes each statistic in its own kernels, a thread a row, with
// the statistics through global memory. float32 only: its bfloat16 schedule failed to launch at N =
// 65536 and 262144 (-s10). No CPU form: Adams2019's schedule was correct but took about 2.5 minutes
// of autoscheduling a variant, which CI cannot afford, and Mullapudi2016's (a second) sums each row
// serially in float32, which missed the float32 bound at N = 262147 (rmsnorm_residual, layernorm;
// tried 2026-12-02).
// Measured 2026-12-02 (results/runs/2026-12-02-h200-s11, -cpu-s11), at the minimum bytes, 2^26
// elements a call on the H200 and 2^22 on the CPU, by N (*: the fastest strategy there): H200 TB/s:
// float32 256 0.72, 1k 0.75, 4k 0.66, 16k 0.23, 64k 0.05, 256k 0.01; CPU: not built.
// summary: autoscheduled by Anderson2021 (CUDA only: Adams2019 took 2.5 min a variant here)
// autoscheduler: cuda=Anderson2021
// targets: cuda
// dtypes: float32
#include "softmax.h"

namespace fuselab {

FUSELAB_SCHEDULE(Softmax, auto) {}

}  // namespace fuselab
