// pointwise_chain (seed §1.5): the ten-operator chain of WORKLOADS.md.
#include <algorithm>
#include <cmath>

#include "fuselab/workloads.h"

namespace fuselab {
namespace {

Workload pointwise_chain() {
    Workload w;
    w.pipeline = "pointwise_chain";
    w.size_format = "N";
    w.tolerance = 1e-5;
    // Ten float32 steps, two of them approximate transcendentals (CUDA's ex2.approx and
    // div.approx, about 2 ulp; the CPU's exp_parts, 2.5e-7 relative) on an output in (0, 3).
    w.element_tolerance = [](const Size &) { return ElementTolerance{1e-5, 1e-5}; };
    w.cpu_sizes = {{1 << 24}, {1 << 16}};
    w.cuda_sizes = {{1 << 28}, {1 << 16}};
    w.test_sizes = {{1}, {7}, {1023}, {100003}};
    w.shapes = [](const Size &s) {
        return std::vector<ArgShape>{{"x", {s[0]}, false}, {"out", {s[0]}, true}};
    };
    w.reference = [](const Buffers &in, const Size &s) {
        const auto &x = in.at("x");
        Halide::Runtime::Buffer<double> out(s[0]);
        for (int i = 0; i < s[0]; i++) {
            double v = 1.5 * x(i);
            v = std::max(0.0, v + 0.25) * 0.75 - 0.1;
            v = 2.0 * std::tanh(v) + 1.0;
            out(i) = 3.0 / (1.0 + std::exp(-v));
        }
        return RefBuffers{{"out", std::move(out)}};
    };
    w.flops = [](const Size &) { return 0.0; };
    w.size_of = [](const Shapes &in) { return Size{in.at("x")[0]}; };
    return w;
}

const WorkloadRegistration registered(pointwise_chain());

}  // namespace
}  // namespace fuselab
