#include "conv_relu_pool.h"

namespace fuselab {

void ConvReluPool::generate() {
    conv_relu_pool_algorithm(*this, weights, bias, input.dim(2).extent());

    // Shapes follow from the input and the weights; anything else is an error, not a crop.
    input.dim(0).set_min(0);
    input.dim(1).set_min(0);
    input.dim(2).set_min(0);
    weights.dim(0).set_bounds(0, 3);
    weights.dim(1).set_bounds(0, 3);
    weights.dim(2).set_bounds(0, input.dim(2).extent());
    weights.dim(3).set_min(0);
    // Weights are dense in PyTorch's [k][c][ky][kx] order, so that a schedule can address every
    // tap of a channel group from one pointer.
    weights.dim(1).set_stride(3);
    weights.dim(2).set_stride(9);
    weights.dim(3).set_stride(9 * input.dim(2).extent());
    bias.dim(0).set_bounds(0, weights.dim(3).extent());
    out.dim(0).set_bounds(0, input.dim(0).extent() / 2);
    out.dim(1).set_bounds(0, input.dim(1).extent() / 2);
    out.dim(2).set_bounds(0, weights.dim(3).extent());

    // Estimates: the primary GPU workload (C3 K16 at 3840x2160).
    input.set_estimates({{0, 3840}, {0, 2160}, {0, 3}});
    weights.set_estimates({{0, 3}, {0, 3}, {0, 3}, {0, 16}});
    bias.set_estimates({{0, 16}});
    out.set_estimates({{0, 1920}, {0, 1080}, {0, 16}});
}

}  // namespace fuselab

HALIDE_REGISTER_GENERATOR(fuselab::ConvReluPool, conv_relu_pool)
