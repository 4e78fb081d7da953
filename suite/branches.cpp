// branches (seed §1.3.1): two outputs from one shared input (branches) or from two inputs
// (branches_indep).
#include <algorithm>
#include <cmath>

#include "fuselab/workloads.h"

namespace fuselab {
namespace {

Workload branches_common(bool independent) {
    Workload w;
    w.pipeline = independent ? "branches_indep" : "branches";
    w.size_format = "N";
    w.tolerance = 1e-5;
    // out1 = relu(2x + 1) rounds once; out2 = sigmoid(x) / 2 goes through an approximate exp and
    // division (about 2 ulp on CUDA) on values in (0, 0.5).
    w.element_tolerance = [](const Size &) { return ElementTolerance{1e-6, 1e-5}; };
    w.cpu_sizes = {{1 << 24}};
    w.cuda_sizes = {{1 << 28}};
    w.test_sizes = {{1}, {7}, {1023}, {100003}};
    w.shapes = independent ? [](const Size &s) {
        return std::vector<ArgShape>{{"x", {s[0]}, false}, {"y", {s[0]}, false},
                                     {"out1", {s[0]}, true}, {"out2", {s[0]}, true}};
    } : [](const Size &s) {
        return std::vector<ArgShape>{{"x", {s[0]}, false}, {"out1", {s[0]}, true}, {"out2", {s[0]}, true}};
    };
    w.reference = independent ? [](const Buffers &in, const Size &s) {
        const auto &x = in.at("x");
        const auto &y = in.at("y");
        Halide::Runtime::Buffer<double> out1(s[0]), out2(s[0]);
        for (int i = 0; i < s[0]; i++) {
            out1(i) = std::max(0.0, 2.0 * x(i) + 1.0);
            out2(i) = 0.5 / (1.0 + std::exp(-double(y(i))));
        }
        return RefBuffers{{"out1", std::move(out1)}, {"out2", std::move(out2)}};
    } : [](const Buffers &in, const Size &s) {
        const auto &x = in.at("x");
        Halide::Runtime::Buffer<double> out1(s[0]), out2(s[0]);
        for (int i = 0; i < s[0]; i++) {
            out1(i) = std::max(0.0, 2.0 * x(i) + 1.0);
            out2(i) = 0.5 / (1.0 + std::exp(-double(x(i))));
        }
        return RefBuffers{{"out1", std::move(out1)}, {"out2", std::move(out2)}};
    };
    w.flops = [](const Size &) { return 0.0; };
    w.size_of = [](const Shapes &in) { return Size{in.at("x")[0]}; };
    return w;
}

const WorkloadRegistration shared_input(branches_common(false));
const WorkloadRegistration independent(branches_common(true));

}  // namespace
}  // namespace fuselab
