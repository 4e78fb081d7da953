// conv_relu_pool (seed §1.2, §1.3.2): PyTorch's max_pool2d(relu(conv2d(input, w, bias, padding=1)),
// 2).
#pragma once

#include "fuselab/schedule_registry.h"

namespace fuselab {

class ConvReluPool : public Halide::Generator<ConvReluPool> {
public:
    GeneratorParam<std::string> schedule_name{"schedule", "tiled"};

    Input<Buffer<float, 3>> input{"input"};      // (x, y, c)      == torch [c][y][x]
    Input<Buffer<float, 4>> weights{"weights"};  // (kx, ky, c, k) == torch [k][c][ky][kx]
    Input<Buffer<float, 1>> bias{"bias"};        // (k)
    Output<Buffer<float, 3>> out{"out"};         // (x, y, k), floor(W/2) x floor(H/2) x K

    Var x{"x"}, y{"y"}, k{"k"};
    RDom r;                 // (kx, ky, c)
    Func padded{"padded"};  // zero outside the image
    Func acc{"acc"};        // the 3x3xC dot product
    Func conv{"conv"};      // bias + acc
    Func relu{"relu"};

    void generate();
    void schedule() { apply_schedule(*this, schedule_name, get_target()); }
};

}  // namespace fuselab
