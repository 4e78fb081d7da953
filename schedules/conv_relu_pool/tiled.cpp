// tiled: conv computed inside the pool's GPU thread, as the hand-written fused kernel does: one
// thread per pooled pixel and 16 output channels, the 2x2x16 conv results in registers, the
// input patch read once per thread and used for all 16 channels; relu inlined. CUDA: 1 kernel,
// no intermediate in global memory, no recompute. H200, 3840x2160 C3 K16: 360 us (run3).
// summary: conv+relu in registers inside each pool thread, 16 channels a thread
#include "conv_relu_pool_common.h"

namespace fuselab {

FUSELAB_SCHEDULE(ConvReluPool, tiled) { conv_relu_pool::register_blocked(g, target, 16); }

}  // namespace fuselab
