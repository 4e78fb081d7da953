// auto: no hand schedule; the build runs Anderson2021 (CUDA) or Adams2019 (CPU) on the
// generator's estimates (C3 K16, 3840x2160). On CUDA through fuselab_guarded
// (guarded_autoscheduler.h), which makes Anderson2021's RoundUp tails (here acc's) GuardWithIf.
// Measured 2026-12-01 (results/runs/2026-12-01-h200-s8, -cpu-s8): H200: 3840x2160x3x16 4314.5 us,
// 1920x1080x16x16 4877.6 us, 256x256x64x64 2654.7 us; 2-core EPYC (Zen 5): 1920x1080x3x16
// 8796.9 us.
// summary: autoscheduled (Anderson2021 on CUDA, Adams2019 on CPU)
// autoscheduler: cpu=Adams2019 cuda=Anderson2021
#include "conv_relu_pool.h"

namespace fuselab {

FUSELAB_SCHEDULE(ConvReluPool, auto) {}

}  // namespace fuselab
