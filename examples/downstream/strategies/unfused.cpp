// unfused: scaled and biased each at root, then relu: three kernels on CUDA, two N-float
// intermediates written and read back (7 x 4N bytes against fused's 4 x 4N).
// summary: scale, bias and relu as three loops, two intermediates
#include "scale_bias_relu.h"

namespace downstream {

FUSELAB_SCHEDULE(ScaleBiasRelu, unfused) {
    g.scaled.compute_root();
    g.biased.compute_root();
    own_loop(g.scaled, g.i, target);
    own_loop(g.biased, g.i, target);
    own_loop(g.out, g.i, target);
}

}  // namespace downstream
