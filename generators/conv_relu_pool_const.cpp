// conv_relu_pool_const: conv_relu_pool for one (C, K), its weights and bias as kernel
// parameters (conv_relu_pool.h says why the weights' storage shows up in an algorithm).
#include "conv_relu_pool.h"

namespace fuselab {

void ConvReluPoolConst::generate() {
    const int C = channels, K = filters;
    if (static_cast<int>(weights.size()) != 9 * C * K || static_cast<int>(bias.size()) != K) {
        throw Halide::CompileError(
            "conv_relu_pool_const: weights_param.size must be 9 x channels x filters (" +
            std::to_string(9 * C * K) + ") and bias_param.size filters (" + std::to_string(K) +
            ")");
    }
    std::vector<Expr> wv, bv;
    for (size_t i = 0; i < weights.size(); i++) wv.push_back(weights[i]);
    for (size_t i = 0; i < bias.size(); i++) bv.push_back(bias[i]);
    Var kx{"kx"}, ky{"ky"}, c{"c"};
    // The runtime passes the caller's weights (kx, ky, c, k) in dense order (invoke.h).
    w(kx, ky, c, k) = mux(kx + 3 * ky + 9 * c + 9 * C * k, wv);
    b(k) = mux(k, bv);
    conv_relu_pool_algorithm(*this, w, b, C);

    input.dim(0).set_min(0);
    input.dim(1).set_min(0);
    input.dim(2).set_bounds(0, C);
    out.dim(0).set_bounds(0, input.dim(0).extent() / 2);
    out.dim(1).set_bounds(0, input.dim(1).extent() / 2);
    out.dim(2).set_bounds(0, K);
    input.set_estimates({{0, 3840}, {0, 2160}, {0, C}});
    out.set_estimates({{0, 1920}, {0, 1080}, {0, K}});
}

}  // namespace fuselab

HALIDE_REGISTER_GENERATOR(fuselab::ConvReluPoolConst, conv_relu_pool_const)
