// root: every stage at root. CUDA: K kernels, K-1 intermediates of about W x H floats each.
// summary: every stage at root: K kernels, K-1 intermediates
#include "image_common.h"
#include "stencil_chain.h"

namespace fuselab {

FUSELAB_SCHEDULE(StencilChain, root) {
    for (size_t i = 1; i < g.s.size(); i++) {
        if (i + 1 < g.s.size()) g.s[i].compute_root();
        image::own_loop(g.s[i], g.x, g.y, target);
    }
}

}  // namespace fuselab
