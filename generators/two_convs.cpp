#include "two_convs.h"

namespace fuselab {

namespace {

// out(x, y, k) = max(0, bias(k) + sum over (kx, ky, c) of in(x + kx - 1, y + ky - 1, c) *
// w(kx, ky, c, k)), in = 0 outside the image.
template <typename W, typename B, typename O>
void conv3x3_relu(Halide::Func in, const Halide::Expr &width, const Halide::Expr &height,
                  W &weights, B &bias, O &out, ConvLayerFuncs &l, const Halide::RDom &r,
                  const Halide::Var &x, const Halide::Var &y, const Halide::Var &k) {
    using namespace Halide;
    l.padded = BoundaryConditions::constant_exterior(in, 0.0f, {{0, width}, {0, height}});
    l.acc(x, y, k) = 0.0f;
    l.acc(x, y, k) += l.padded(x + r.x - 1, y + r.y - 1, r.z) * weights(r.x, r.y, r.z, k);
    out(x, y, k) = max(0.0f, bias(k) + l.acc(x, y, k));
}

// Shapes follow from the inputs and weights; anything else is an error, not a crop. Weights are
// dense in PyTorch's [k][c][ky][kx] order (as conv_relu_pool's), so that a schedule can address
// every tap of a channel group from one pointer.
template <typename In, typename W, typename B, typename O>
void constrain(In &in, W &weights, B &bias, O &out) {
    weights.dim(0).set_bounds(0, 3);
    weights.dim(1).set_bounds(0, 3);
    weights.dim(2).set_bounds(0, in.dim(2).extent());
    weights.dim(3).set_min(0);
    weights.dim(1).set_stride(3);
    weights.dim(2).set_stride(9);
    weights.dim(3).set_stride(9 * in.dim(2).extent());
    bias.dim(0).set_bounds(0, weights.dim(3).extent());
    out.dim(0).set_bounds(0, in.dim(0).extent());
    out.dim(1).set_bounds(0, in.dim(1).extent());
    out.dim(2).set_bounds(0, weights.dim(3).extent());
    // Estimates: the compute-bound GPU workload (C16, K1 = K2 = 16 at 1920x1080).
    weights.set_estimates({{0, 3}, {0, 3}, {0, 16}, {0, 16}});
    bias.set_estimates({{0, 16}});
    out.set_estimates({{0, 1920}, {0, 1080}, {0, 16}});
}

template <typename In>
void constrain_input(In &in) {
    in.dim(0).set_min(0);
    in.dim(1).set_min(0);
    in.dim(2).set_min(0);
    in.set_estimates({{0, 1920}, {0, 1080}, {0, 16}});
}

}  // namespace

void TwoConvs::generate() {
    r = RDom(0, 3, 0, 3, 0, input.dim(2).extent(), "r");
    const Expr w = input.dim(0).extent(), h = input.dim(1).extent();
    conv3x3_relu(input, w, h, weights1, bias1, out1, l1, r, x, y, k);
    conv3x3_relu(input, w, h, weights2, bias2, out2, l2, r, x, y, k);
    constrain_input(input);
    constrain(input, weights1, bias1, out1);
    constrain(input, weights2, bias2, out2);
    // K1 == K2 (the workloads' sizes have one K): the two outputs have one shape, so that a
    // schedule can run both in one loop nest without guards between them.
    weights2.dim(3).set_extent(weights1.dim(3).extent());
}

void TwoConvsIndep::generate() {
    r = RDom(0, 3, 0, 3, 0, input1.dim(2).extent(), "r");
    const Expr w = input1.dim(0).extent(), h = input1.dim(1).extent();
    conv3x3_relu(input1, w, h, weights1, bias1, out1, l1, r, x, y, k);
    conv3x3_relu(input2, w, h, weights2, bias2, out2, l2, r, x, y, k);
    constrain_input(input1);
    constrain_input(input2);
    for (int d = 0; d < 3; d++) input2.dim(d).set_bounds(0, input1.dim(d).extent());
    constrain(input1, weights1, bias1, out1);
    constrain(input1, weights2, bias2, out2);
    weights2.dim(3).set_extent(weights1.dim(3).extent());  // K1 == K2, as in two_convs
}

}  // namespace fuselab

HALIDE_REGISTER_GENERATOR(fuselab::TwoConvs, two_convs)
HALIDE_REGISTER_GENERATOR(fuselab::TwoConvsIndep, two_convs_indep)
