// auto: no hand schedule; the build runs Anderson2021 (CUDA) or Adams2019 (CPU) on the
// generator's estimates (C3 K16, 3840x2160).
// Measured 2026-11-30 (bench/results): H200: 3840x2160x3x16 4315.9 us, 1920x1080x16x16 4877.5 us,
// 256x256x64x64 2657.9 us; 2-core EPYC (Zen 5), 2026-12-01 (bench/results/2026-12-01-cpu-peers):
// 1920x1080x3x16 6073.9 us.
// summary: autoscheduled (Anderson2021 on CUDA, Adams2019 on CPU)
// autoscheduler: cpu=Adams2019 cuda=Anderson2021
#include "conv_relu_pool.h"

namespace fuselab {

FUSELAB_SCHEDULE(ConvReluPool, auto) {}

}  // namespace fuselab
