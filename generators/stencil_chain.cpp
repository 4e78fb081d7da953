#include "stencil_chain.h"

namespace fuselab {

void StencilChain::generate() {
    const int K = stages;
    Func prev = in;
    s.assign(K + 1, Func());
    for (int i = 1; i <= K; i++) {
        Func f("s" + std::to_string(i));
        f(x, y) = (prev(x, y) + prev(x + 1, y) + prev(x, y + 1) + prev(x + 1, y + 1)) / 4.0f;
        s[i] = f;
        prev = f;
    }
    out(x, y) = s[K](x, y);

    in.dim(0).set_min(0);
    in.dim(1).set_min(0);
    out.dim(0).set_bounds(0, in.dim(0).extent() - K);
    out.dim(1).set_bounds(0, in.dim(1).extent() - K);
    // Estimates: the default GPU size (8192 x 8192 out).
    in.set_estimates({{0, 8192 + K}, {0, 8192 + K}});
    out.set_estimates({{0, 8192}, {0, 8192}});
}

}  // namespace fuselab

HALIDE_REGISTER_GENERATOR(fuselab::StencilChain, stencil_chain)
