// auto: no hand schedule; the build runs Anderson2021 (CUDA) or Adams2019 (CPU) on the
// generator's estimates (C3 K16, 3840x2160).
// Measured 2026-12-01 (bench/results/2026-12-01-h200-s7, -cpu-s7): H200: 3840x2160x3x16 4372.8 us,
// 1920x1080x16x16 4900.4 us, 256x256x64x64 2663.0 us; 2-core EPYC (Zen 5): 1920x1080x3x16
// 7422.0 us.
// summary: autoscheduled (Anderson2021 on CUDA, Adams2019 on CPU)
// autoscheduler: cpu=Adams2019 cuda=Anderson2021
#include "conv_relu_pool.h"

namespace fuselab {

FUSELAB_SCHEDULE(ConvReluPool, auto) {}

}  // namespace fuselab
