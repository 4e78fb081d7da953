// two_convs (seed §1.3.1): two 3x3 conv + ReLU layers, padding 1, no pooling, on one shared input
// (two_convs) or on two inputs of one shape (two_convs_indep). Sizes are W x H x C x K (K1 = K2).
#include <algorithm>
#include <string>

#include "fuselab/workloads.h"

namespace fuselab {
namespace {

// max(0, bias(k) + sum over c, dy, dx of in(x + dx, y + dy, c) * w(dx + 1, dy + 1, c, k)) in
// float64, in = 0 outside the image.
Halide::Runtime::Buffer<double> conv3x3_relu(const Halide::Runtime::Buffer<float> &in,
                                             const Halide::Runtime::Buffer<float> &w,
                                             const Halide::Runtime::Buffer<float> &bias,
                                             const Size &s) {
    const int W = s[0], H = s[1], C = s[2], K = s[3];
    Halide::Runtime::Buffer<double> out(W, H, K);
    for (int k = 0; k < K; k++) {
        for (int y = 0; y < H; y++) {
            for (int x = 0; x < W; x++) {
                double acc = bias(k);
                for (int c = 0; c < C; c++) {
                    for (int dy = -1; dy <= 1; dy++) {
                        for (int dx = -1; dx <= 1; dx++) {
                            const int ix = x + dx, iy = y + dy;
                            if (ix < 0 || iy < 0 || ix >= W || iy >= H) continue;
                            acc += double(in(ix, iy, c)) * double(w(dx + 1, dy + 1, c, k));
                        }
                    }
                }
                out(x, y, k) = std::max(0.0, acc);
            }
        }
    }
    return out;
}

Workload two_convs_common(bool independent) {
    Workload w;
    w.pipeline = independent ? "two_convs_indep" : "two_convs";
    w.size_format = "WxHxCxK";
    w.tolerance = 1e-4;
    // As conv_relu_pool's: a float32 sum of 9 C products, accumulated in any order.
    w.element_tolerance = [](const Size &s) { return ElementTolerance{1e-6 * 9 * s[2], 1e-5}; };
    w.cpu_sizes = {{960, 540, 16, 16}};
    w.cuda_sizes = {{1920, 1080, 16, 16}, {64, 64, 16, 16}};
    // Smaller than a thread's tile, cut at every edge, channels not a multiple of a block's.
    w.test_sizes = {{1, 1, 1, 1}, {7, 5, 3, 16}, {33, 19, 3, 7}, {67, 41, 16, 16}, {31, 30, 4, 20}};
    w.shapes = independent ? [](const Size &s) {
        return std::vector<ArgShape>{{"input1", {s[0], s[1], s[2]}, false},
                                     {"input2", {s[0], s[1], s[2]}, false},
                                     {"weights1", {3, 3, s[2], s[3]}, false},
                                     {"bias1", {s[3]}, false},
                                     {"weights2", {3, 3, s[2], s[3]}, false},
                                     {"bias2", {s[3]}, false},
                                     {"out1", {s[0], s[1], s[3]}, true},
                                     {"out2", {s[0], s[1], s[3]}, true}};
    } : [](const Size &s) {
        return std::vector<ArgShape>{{"input", {s[0], s[1], s[2]}, false},
                                     {"weights1", {3, 3, s[2], s[3]}, false},
                                     {"bias1", {s[3]}, false},
                                     {"weights2", {3, 3, s[2], s[3]}, false},
                                     {"bias2", {s[3]}, false},
                                     {"out1", {s[0], s[1], s[3]}, true},
                                     {"out2", {s[0], s[1], s[3]}, true}};
    };
    w.reference = independent ? [](const Buffers &in, const Size &s) {
        return RefBuffers{
            {"out1", conv3x3_relu(in.at("input1"), in.at("weights1"), in.at("bias1"), s)},
            {"out2", conv3x3_relu(in.at("input2"), in.at("weights2"), in.at("bias2"), s)}};
    } : [](const Buffers &in, const Size &s) {
        return RefBuffers{
            {"out1", conv3x3_relu(in.at("input"), in.at("weights1"), in.at("bias1"), s)},
            {"out2", conv3x3_relu(in.at("input"), in.at("weights2"), in.at("bias2"), s)}};
    };
    // 2 flops per multiply-add, both layers.
    w.flops = [](const Size &s) { return 2.0 * 2.0 * s[0] * s[1] * s[3] * 9.0 * s[2]; };
    w.size_of = independent ? [](const Shapes &in) {
        const auto &input = in.at("input1");
        return Size{input[0], input[1], input[2], in.at("weights1")[3]};
    } : [](const Shapes &in) {
        const auto &input = in.at("input");
        return Size{input[0], input[1], input[2], in.at("weights1")[3]};
    };
    return w;
}

const WorkloadRegistration shared_input(two_convs_common(false));
const WorkloadRegistration independent(two_convs_common(true));

}  // namespace
}  // namespace fuselab
