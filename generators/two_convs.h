// two_convs (seed §1.3.1, horizontal fusion of two convolutions): two independent 3x3 conv + ReLU
// layers (padding 1, no pooling), PyTorch's relu(conv2d(x, w, b, padding=1)) twice:
//   two_convs:       out1 = relu(conv(in, w1, b1)), out2 = relu(conv(in, w2, b2))  (one input)
//   two_convs_indep: out1 = relu(conv(in1, w1, b1)), out2 = relu(conv(in2, w2, b2)) (two inputs of
//                    one shape: fusing saves a launch, not a read)
#pragma once

#include "schedule_registry.h"

namespace fuselab {

// The Funcs and Vars of one layer, as the strategies see them.
struct ConvLayerFuncs {
    Halide::Func padded;  // zero outside the image
    Halide::Func acc;     // the 3x3xC dot product
};

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
