// add_relu (seed §1.4): out[i] = max(0, a[i] + b[i]).
#include <algorithm>

#include "fuselab/workloads.h"

namespace fuselab {
namespace {

Workload add_relu() {
    Workload w;
    w.pipeline = "add_relu";
    w.size_format = "N";
    w.tolerance = 1e-5;
    // One float32 rounding of a + b (relu is exact): 2^-24 relative; 1e-6 leaves room for none
    // of a wrong element's error.
    w.element_tolerance = [](const Size &) { return ElementTolerance{1e-7, 1e-6}; };
    w.cpu_sizes = {{1 << 24}, {1 << 12}};
    w.cuda_sizes = {{1 << 28}, {1 << 12}};
    w.test_sizes = {{1}, {7}, {1023}, {100003}};
    w.shapes = [](const Size &s) {
        return std::vector<ArgShape>{
            {"a", {s[0]}, false}, {"b", {s[0]}, false}, {"out", {s[0]}, true}};
    };
    w.reference = [](const Buffers &in, const Size &s) {
        const auto &a = in.at("a");
        const auto &b = in.at("b");
        Halide::Runtime::Buffer<double> out(s[0]);
        for (int i = 0; i < s[0]; i++) out(i) = std::max(0.0, double(a(i)) + double(b(i)));
        return RefBuffers{{"out", std::move(out)}};
    };
    w.flops = [](const Size &) { return 0.0; };
    w.size_of = [](const Shapes &in) { return Size{in.at("a")[0]}; };
    return w;
}

const WorkloadRegistration registered(add_relu());

}  // namespace
}  // namespace fuselab
