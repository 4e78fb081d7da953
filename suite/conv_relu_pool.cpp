// conv_relu_pool (seed §1.2, §1.3.2): max_pool2d(relu(conv2d(input, w, bias, padding=1)), 2).
#include <algorithm>
#include <limits>

#include "fuselab/workloads.h"

namespace fuselab {
namespace {

Workload conv_relu_pool() {
    Workload w;
    w.pipeline = "conv_relu_pool";
    w.size_format = "WxHxCxK";
    w.tolerance = 1e-4;
    // A float32 sum of 9 C products of values in [-1, 1], in whatever order the schedule
    // accumulates (typically about sqrt(9 C) roundings of partial sums of size ~sqrt(9 C)):
    // 1e-6 per product is some 50x that, and far under any wrong tap (~0.1).
    w.element_tolerance = [](const Size &s) { return ElementTolerance{1e-6 * 9 * s[2], 1e-5}; };
    w.cpu_sizes = {{1920, 1080, 3, 16}};
    w.cuda_sizes = {{3840, 2160, 3, 16}, {1920, 1080, 16, 16}, {256, 256, 64, 64}};
    w.test_sizes = {{2, 2, 1, 1}, {7, 5, 3, 16}, {33, 19, 3, 7}, {67, 41, 16, 16}, {31, 30, 4, 20}};
    w.shapes = [](const Size &s) {
        return std::vector<ArgShape>{{"input", {s[0], s[1], s[2]}, false},
                                     {"weights", {3, 3, s[2], s[3]}, false},
                                     {"bias", {s[3]}, false},
                                     {"out", {s[0] / 2, s[1] / 2, s[3]}, true}};
    };
    w.reference = [](const Buffers &in, const Size &s) {
        const auto &input = in.at("input");
        const auto &wt = in.at("weights");
        const auto &bias = in.at("bias");
        const int W = s[0], H = s[1], C = s[2], K = s[3];
        Halide::Runtime::Buffer<double> out(W / 2, H / 2, K);
        for (int k = 0; k < K; k++) {
            for (int y = 0; y < H / 2; y++) {
                for (int x = 0; x < W / 2; x++) {
                    double best = -std::numeric_limits<double>::infinity();
                    for (int j = 0; j < 2; j++) {
                        for (int i = 0; i < 2; i++) {
                            const int px = 2 * x + i, py = 2 * y + j;
                            double acc = bias(k);
                            for (int c = 0; c < C; c++) {
                                for (int dy = -1; dy <= 1; dy++) {
                                    for (int dx = -1; dx <= 1; dx++) {
                                        const int ix = px + dx, iy = py + dy;
                                        if (ix < 0 || iy < 0 || ix >= W || iy >= H) continue;
                                        acc += double(input(ix, iy, c)) *
                                               double(wt(dx + 1, dy + 1, c, k));
                                    }
                                }
                            }
                            best = std::max(best, std::max(0.0, acc));
                        }
                    }
                    out(x, y, k) = best;
                }
            }
        }
        return RefBuffers{{"out", std::move(out)}};
    };
    // 2 flops per multiply-add over the full-resolution conv (the pool's work is negligible).
    w.flops = [](const Size &s) { return 2.0 * s[0] * s[1] * s[3] * 9.0 * s[2]; };
    w.size_of = [](const Shapes &in) {
        const auto &input = in.at("input");
        return Size{input[0], input[1], input[2], in.at("weights")[3]};
    };
    return w;
}

const WorkloadRegistration registered(conv_relu_pool());

}  // namespace
}  // namespace fuselab
