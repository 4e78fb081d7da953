// tiled: conv computed inside the pool's GPU thread, as the hand-written fused kernel does: one
// thread per pooled pixel and 16 output channels, the 2x2x16 conv results in registers, the 3x3xC
// input patch read once per thread and used for all 16 channels. relu inlined. CUDA: 1 kernel,
// no intermediate in global memory, no recompute. CPU: conv strips of two rows computed per
// pooled row inside each parallel task.
// summary: conv+relu computed in registers inside each pool thread, 16 channels a thread
#include "conv_relu_pool.h"

namespace fuselab {

FUSELAB_SCHEDULE(ConvReluPool, tiled) {
    using namespace Halide;
    Var xo{"xo"}, yo{"yo"}, xi{"xi"}, yi{"yi"}, ko{"ko"}, ki{"ki"}, yk{"yk"};
    auto &x = g.x, &y = g.y, &k = g.k;
    auto &r = g.r;
    if (target.has_gpu_feature()) {
        const int kb = 16;  // channels per thread, kept in registers
        g.out.split(k, ko, ki, kb, TailStrategy::GuardWithIf)
            .gpu_tile(x, y, xo, yo, xi, yi, 32, 4, TailStrategy::GuardWithIf)
            .reorder(ki, xi, yi, xo, yo, ko)
            .gpu_blocks(ko)
            .unroll(ki);
        g.acc.compute_at(g.out, xi)
            .bound_storage(k, kb)
            .store_in(MemoryType::Register)
            .reorder(k, x, y)
            .unroll(x)
            .unroll(y)
            .unroll(k, kb, TailStrategy::GuardWithIf);
        g.acc.update()
            .reorder(k, x, y, r.x, r.y, r.z)
            .unroll(k, kb, TailStrategy::GuardWithIf)
            .unroll(x)
            .unroll(y)
            .unroll(r.x)
            .unroll(r.y);
    } else {
        const int lanes = target.natural_vector_size<float>();
        g.out.vectorize(x, lanes, TailStrategy::GuardWithIf).fuse(y, k, yk).parallel(yk);
        g.conv.compute_at(g.out, yk).vectorize(x, lanes, TailStrategy::GuardWithIf);
        g.acc.compute_at(g.conv, x).vectorize(x);
        g.acc.update().vectorize(x).reorder(x, y, r.x, r.y, r.z).unroll(r.x).unroll(r.y);
    }
}

}  // namespace fuselab
