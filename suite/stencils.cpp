// The 2-D stencils: blur3x3 (separable 3x3 box) and stencil_chain_k{2,4,8} (K 2x2 averages).
// Sizes are the output's W x H; the input carries the halo.
#include <string>

#include "fuselab/workloads.h"

namespace fuselab {
namespace {

// What the 2-D stencils share: sizes are the output's W x H, the input carries a halo of
// `Halo` pixels on the right and bottom.
template <int Halo>
Workload image_workload(const std::string &pipeline) {
    Workload w;
    w.pipeline = pipeline;
    w.size_format = "WxH";
    w.tolerance = 1e-5;
    // Averages of values in [-1, 1]: two roundings a stage, each at most 2^-24 of a value of at
    // most 1, over Halo stages (blur3x3: two passes); 5e-7 a stage is some 4x that.
    w.element_tolerance = [](const Size &) { return ElementTolerance{5e-7 * (Halo + 2), 1e-5}; };
    w.cpu_sizes = {{4096, 4096}};
    w.cuda_sizes = {{8192, 8192}};
    // 256 x 64: whole strips and blocks (the line buffers' unguarded branch).
    w.test_sizes = {{1, 1}, {7, 5}, {67, 33}, {301, 97}, {256, 64}};
    w.shapes = [](const Size &s) {
        return std::vector<ArgShape>{{"in", {s[0] + Halo, s[1] + Halo}, false},
                                     {"out", {s[0], s[1]}, true}};
    };
    w.flops = [](const Size &) { return 0.0; };
    w.size_of = [](const Shapes &in) {
        const auto &e = in.at("in");
        return Size{e[0] - Halo, e[1] - Halo};
    };
    return w;
}

template <int K>
Workload stencil_chain_k() {
    Workload w = image_workload<K>("stencil_chain_k" + std::to_string(K));
    w.reference = [](const Buffers &in, const Size &s) {
        const auto &src = in.at("in");
        Halide::Runtime::Buffer<double> cur(s[0] + K, s[1] + K);
        cur.for_each_element([&](int x, int y) { cur(x, y) = src(x, y); });
        for (int stage = 1; stage <= K; stage++) {
            Halide::Runtime::Buffer<double> next(s[0] + K - stage, s[1] + K - stage);
            next.for_each_element([&](int x, int y) {
                next(x, y) = (cur(x, y) + cur(x + 1, y) + cur(x, y + 1) + cur(x + 1, y + 1)) / 4.0;
            });
            cur = next;
        }
        return RefBuffers{{"out", std::move(cur)}};
    };
    return w;
}

Workload blur3x3() {
    Workload w = image_workload<2>("blur3x3");
    w.reference = [](const Buffers &in, const Size &s) {
        const auto &src = in.at("in");
        Halide::Runtime::Buffer<double> out(s[0], s[1]);
        out.for_each_element([&](int x, int y) {
            double sum = 0;
            for (int j = 0; j < 3; j++) {
                sum += (double(src(x, y + j)) + src(x + 1, y + j) + src(x + 2, y + j)) / 3.0;
            }
            out(x, y) = sum / 3.0;
        });
        return RefBuffers{{"out", std::move(out)}};
    };
    return w;
}

const WorkloadRegistration registered[] = {
    WorkloadRegistration(blur3x3()),
    WorkloadRegistration(stencil_chain_k<2>()),
    WorkloadRegistration(stencil_chain_k<4>()),
    WorkloadRegistration(stencil_chain_k<8>()),
};

}  // namespace
}  // namespace fuselab
