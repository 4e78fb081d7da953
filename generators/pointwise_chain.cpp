#include "pointwise_chain.h"

namespace fuselab {

void PointwiseChain::generate() {
    s1(i) = 1.5f * x(i);
    s2(i) = s1(i) + 0.25f;
    s3(i) = max(0.0f, s2(i));
    s4(i) = 0.75f * s3(i);
    s5(i) = s4(i) - 0.1f;
    s6(i) = tanh_for(s5(i), get_target());
    s7(i) = 2.0f * s6(i);
    s8(i) = s7(i) + 1.0f;
    s9(i) = sigmoid(s8(i), get_target());
    out(i) = 3.0f * s9(i);

    out.dim(0).set_bounds(x.dim(0).min(), x.dim(0).extent());
    // Estimates: the default GPU size (2^28).
    x.set_estimates({{0, 1 << 28}});
    out.set_estimates({{0, 1 << 28}});
}

}  // namespace fuselab

HALIDE_REGISTER_GENERATOR(fuselab::PointwiseChain, pointwise_chain)
