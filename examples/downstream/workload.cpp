// scale_bias_relu's workload, declared through fuselab's public workload API: its shapes, sizes
// and float64 reference. fuselab's bench checks every strategy against it and times them.
#include <algorithm>

#include "fuselab/workloads.h"

namespace {

fuselab::Workload scale_bias_relu() {
    fuselab::Workload w;
    w.pipeline = "scale_bias_relu";
    w.size_format = "N";
    w.tolerance = 1e-5;
    // a x + b rounds twice (or once, fused), on values of at most 2: 2^-23 relative at most.
    w.element_tolerance = [](const fuselab::Size &) { return fuselab::ElementTolerance{1e-7, 1e-6}; };
    w.cpu_sizes = {{1 << 22}, {4099}};
    w.cuda_sizes = {{1 << 26}, {4099}};
    w.test_sizes = {{1}, {1021}};
    w.shapes = [](const fuselab::Size &s) {
        return std::vector<fuselab::ArgShape>{{"x", {s[0]}, false},
                                              {"a", {s[0]}, false},
                                              {"b", {s[0]}, false},
                                              {"out", {s[0]}, true}};
    };
    w.reference = [](const fuselab::Buffers &in, const fuselab::Size &s) {
        const auto &x = in.at("x"), &a = in.at("a"), &b = in.at("b");
        Halide::Runtime::Buffer<double> out(s[0]);
        for (int i = 0; i < s[0]; i++) out(i) = std::max(0.0, double(a(i)) * x(i) + double(b(i)));
        return fuselab::RefBuffers{{"out", std::move(out)}};
    };
    w.flops = [](const fuselab::Size &) { return 0.0; };
    w.size_of = [](const fuselab::Shapes &in) { return fuselab::Size{in.at("x")[0]}; };
    return w;
}

const fuselab::WorkloadRegistration registered(scale_bias_relu());

}  // namespace
