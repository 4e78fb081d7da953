// separate_shared: `separate` with each block first copying its layer's 16 x C x 3 x 3 weights into
// shared memory (conv::weights_in_shared: a tap's 16 weights as four broadcast 16-byte shared loads
// instead of 16 global loads) and each thread 2 x 2 pixels x 16 channels, so that a block covers
// all 16 channels (its input tile read by one block); where K >= 16 the channel blocks shift
// inwards (no channel guard). 2 kernels, no intermediate. ptxas (sm_90, 128 cap): 128 registers, no
// spills; the channel loop is 817 SASS instructions for 576 FFMA (71%; 16 global and 36 shared
// loads). CPU: as `separate`.
// Measured 2026-12-01 (results/runs/2026-12-01-h200-s8, -cpu-s8): H200: 1920x1080x16x16 600.7 us,
// 64x64x16x16 43.7 us, 1920x1080x16x16 601.0 us, 64x64x16x16 47.5 us; 2-core EPYC (Zen 5):
// 960x540x16x16 11.9 ms, 960x540x16x16 12.5 ms.
// summary: one kernel per layer, its weights in shared memory, 2 x 2 px x 16 channels
#include "two_convs_common.h"

namespace fuselab {

FUSELAB_SCHEDULE(TwoConvsIndep, separate_shared) {
    two_convs::separate(g, target, {/*px=*/2, /*py=*/2, /*kb=*/16, /*tx=*/32, /*ty=*/4},
                        /*shared_weights=*/true);
}

}  // namespace fuselab
