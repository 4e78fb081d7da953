// conv_relu_pool (seed §1.2, §1.3.2): PyTorch's max_pool2d(relu(conv2d(input, w, bias, padding=1)),
// 2).
#pragma once

#include "fuselab/schedule_registry.h"

namespace fuselab {

// The algorithm, shared by conv_relu_pool and conv_relu_pool_const: `weights(kx, ky, c, k)` and
// `bias(k)` (input buffers or Funcs), `channels` the input's C.
template <typename G, typename W, typename B>
void conv_relu_pool_algorithm(G &g, W &weights, B &bias, const Halide::Expr &channels) {
    using namespace Halide;
    auto &x = g.x, &y = g.y, &k = g.k;
    g.padded = BoundaryConditions::constant_exterior(g.input, 0.0f);
    g.r = RDom(0, 3, 0, 3, 0, channels, "r");
    const RDom &r = g.r;
    g.acc(x, y, k) = 0.0f;
    g.acc(x, y, k) += g.padded(x + r.x - 1, y + r.y - 1, r.z) * weights(r.x, r.y, r.z, k);
    g.conv(x, y, k) = bias(k) + g.acc(x, y, k);
    g.relu(x, y, k) = max(0.0f, g.conv(x, y, k));
    g.out(x, y, k) = max(max(g.relu(2 * x, 2 * y, k), g.relu(2 * x + 1, 2 * y, k)),
                         max(g.relu(2 * x, 2 * y + 1, k), g.relu(2 * x + 1, 2 * y + 1, k)));
}

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

// The same pipeline for one fixed (C, K), with the weights and bias passed as scalars instead of
// buffers. Why the weights' storage shows up in an algorithm: Halide 21's CUDA backend reads a
// buffer only through loads (it has no __constant__ memory), while scalar inputs become kernel
// parameters, which live in the constant bank, where ptxas hands them to the FFMAs as (uniform)
// operands; a hand-written kernel with its weights there runs C3 K16 in 187 us against 243 us for
// the best loading schedule. `w` and `b` below gather the scalars back into Funcs of (kx, ky, c,
// k) and (k) (a mux that folds to one scalar wherever a schedule makes the tap and the channel
// constant), so the rest of the algorithm is conv_relu_pool's.
// Arguments: input; weights_param_0 .. _{9CK-1} and bias_param_0 .. _{K-1}, which the caller
// binds as the buffers `weights` (kx, ky, c, k) and `bias` of conv_relu_pool, and the runtime
// passes element by element in dense order (fuselab/invoke.h); out. So the caller's view is
// conv_relu_pool's. The scalars take 4 (9CK + K) bytes of the 4 KB kernel-parameter space (C3
// K16: 1792).
class ConvReluPoolConst : public Halide::Generator<ConvReluPoolConst> {
public:
    GeneratorParam<std::string> schedule_name{"schedule", "const_tiled"};
    GeneratorParam<int> channels{"channels", 3, 1, 64};
    GeneratorParam<int> filters{"filters", 16, 1, 64};

    Input<Buffer<float, 3>> input{"input"};  // (x, y, c), C = channels
    Input<float[]> weights{"weights_param"};  // 9 x channels x filters (weights_param.size)
    Input<float[]> bias{"bias_param"};        // filters (bias_param.size)
    Output<Buffer<float, 3>> out{"out"};     // (x, y, k), floor(W/2) x floor(H/2) x filters

    Var x{"x"}, y{"y"}, k{"k"};
    RDom r;
    Func padded{"padded"}, acc{"acc"}, conv{"conv"}, relu{"relu"};
    Func w{"w"}, b{"b"};  // the scalars as (kx, ky, c, k) and (k)

    void generate();
    void schedule() { apply_schedule(*this, schedule_name, get_target()); }
};

}  // namespace fuselab
