// auto: no hand schedule; the build runs Anderson2021 (CUDA) or Adams2019 (CPU) on the
// generator's estimates (C3 K16, 3840x2160).
// summary: autoscheduled (Anderson2021 on CUDA, Adams2019 on CPU)
// autoscheduler: cpu=Adams2019 cuda=Anderson2021
#include "conv_relu_pool.h"

namespace fuselab {

FUSELAB_SCHEDULE(ConvReluPool, auto) {}

}  // namespace fuselab
