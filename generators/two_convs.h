// two_convs (seed §1.3.1, horizontal fusion of two convolutions): two independent 3x3 conv + ReLU
// layers (padding 1, no pooling), PyTorch's relu(conv2d(x, w, b, padding=1)) twice:
//   two_convs:       out1 = relu(conv(in, w1, b1)), out2 = relu(conv(in, w2, b2))  (one input)
//   two_convs_indep: out1 = relu(conv(in1, w1, b1)), out2 = relu(conv(in2, w2, b2)) (two inputs of
//                    one shape: fusing saves a launch, not a read)
#pragma once

#include "fuselab/schedule_registry.h"

namespace fuselab {

// The Funcs and Vars of one layer, as the strategies see them.
struct ConvLayerFuncs {
    Halide::Func padded;  // zero outside the image
    Halide::Func acc;     // the 3x3xC dot product
};

namespace two_convs_detail {

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

}  // namespace two_convs_detail

class TwoConvs : public Halide::Generator<TwoConvs> {
public:
    GeneratorParam<std::string> schedule_name{"schedule", "separate"};

    Input<Buffer<float, 3>> input{"input"};        // (x, y, c)      == torch [c][y][x]
    Input<Buffer<float, 4>> weights1{"weights1"};  // (kx, ky, c, k) == torch [k][c][ky][kx]
    Input<Buffer<float, 1>> bias1{"bias1"};        // (k)
    Input<Buffer<float, 4>> weights2{"weights2"};
    Input<Buffer<float, 1>> bias2{"bias2"};
    Output<Buffer<float, 3>> out1{"out1"};  // (x, y, k): W x H x K1
    Output<Buffer<float, 3>> out2{"out2"};  // W x H x K2

    Var x{"x"}, y{"y"}, k{"k"};
    RDom r;  // (kx, ky, c)
    ConvLayerFuncs l1{Func("padded1"), Func("acc1")}, l2{Func("padded2"), Func("acc2")};

    void generate();
    void schedule() { apply_schedule(*this, schedule_name, get_target()); }
};

class TwoConvsIndep : public Halide::Generator<TwoConvsIndep> {
public:
    GeneratorParam<std::string> schedule_name{"schedule", "separate"};

    Input<Buffer<float, 3>> input1{"input1"};
    Input<Buffer<float, 3>> input2{"input2"};  // the shape of input1
    Input<Buffer<float, 4>> weights1{"weights1"};
    Input<Buffer<float, 1>> bias1{"bias1"};
    Input<Buffer<float, 4>> weights2{"weights2"};
    Input<Buffer<float, 1>> bias2{"bias2"};
    Output<Buffer<float, 3>> out1{"out1"};
    Output<Buffer<float, 3>> out2{"out2"};

    Var x{"x"}, y{"y"}, k{"k"};
    RDom r;
    ConvLayerFuncs l1{Func("padded1"), Func("acc1")}, l2{Func("padded2"), Func("acc2")};

    void generate();
    void schedule() { apply_schedule(*this, schedule_name, get_target()); }
};

}  // namespace fuselab
