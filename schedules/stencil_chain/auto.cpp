// auto: no hand schedule. The build runs an autoscheduler on the generator's estimates
// (Anderson2021 for CUDA, Adams2019 for the CPU); this file only names the strategy. On CUDA
// through fuselab_guarded (guarded_autoscheduler.h), which makes Anderson2021's RoundUp tails
// GuardWithIf: at K = 8 those of s4 and s6; s4's rounded tail read s2 where s2 was not computed
// (525,654 uninitialized reads under initcheck before, all in s4's kernel).
// Measured 2026-12-01 (results/runs/2026-12-01-h200-s8, -cpu-s8): H200: k2 8192x8192 214.1 us, k4
// 8192x8192 429.1 us, k8 8192x8192 857.4 us; 2-core EPYC (Zen 5): k2 4096x4096 4581.6 us, k4
// 4096x4096 7737.3 us, k8 4096x4096 11.1 ms.
// summary: autoscheduled (Anderson2021 on CUDA, Adams2019 on CPU)
// autoscheduler: cpu=Adams2019 cuda=Anderson2021
#include "stencil_chain.h"

namespace fuselab {

FUSELAB_SCHEDULE(StencilChain, auto) {}

}  // namespace fuselab
