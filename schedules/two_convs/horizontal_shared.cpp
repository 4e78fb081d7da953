// horizontal_shared: `horizontal` with each block first copying both layers' weights into shared
// memory (16 x C x 3 x 3 floats a layer: 18 KB at C16), and each thread 2 pixels x 16 channels of
// each layer, so that one block covers all 16 channels (the input tile read by one block) and a
// tap's 16 weights are four broadcast 16-byte shared loads instead of 16 global loads (the
// conv_relu_pool shared_weights shape: 283 against 306 us at C16 K16 there). 1 kernel, no
// intermediate. ptxas (sm_90, 128 cap): 114 registers, no spills. CPU: as `horizontal`.
// Measured: not yet on the H200.
// summary: both layers in one kernel, both layers' weights in shared memory, 2 px x 16 channels
#include "two_convs_common.h"

namespace fuselab {

FUSELAB_SCHEDULE(TwoConvs, horizontal_shared) {
    two_convs::horizontal(g, target, {/*px=*/2, /*kb=*/16, /*tx=*/32, /*ty=*/4},
                          /*shared_weights=*/true);
}

}  // namespace fuselab
