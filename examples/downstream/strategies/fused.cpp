// fused: scaled and biased inlined into relu: one kernel, nothing in memory between the
// operators (4 x 4N bytes: three inputs read, one output written).
// summary: scale, bias and relu in one kernel
#include "scale_bias_relu.h"

namespace downstream {

FUSELAB_SCHEDULE(ScaleBiasRelu, fused) {
    own_loop(g.out, g.i, target);
}

}  // namespace downstream
