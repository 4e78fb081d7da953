// downstream: fuselab used from another project, through its installed CMake package.
//   1. A shipped kernel, conv_relu_pool `tiled`, called on the CPU (and on CUDA where a device
//      is usable) through fuselab's runtime, and once through its typed Halide function, each
//      checked against the built-in workload's float64 reference.
//   2. Our own pipeline, scale_bias_relu, benched through fuselab's bench machinery: both
//      strategies checked against our reference and timed side by side.
// Exits 0 only when every check passes.
#include <cstdio>

#include "conv_relu_pool__tiled__cpu.h"  // Halide's header of the installed variant
#include "fuselab/bench.h"
#include "fuselab/device.h"
#include "fuselab/error.h"
#include "fuselab/invoke.h"
#include "fuselab/registry.h"
#include "fuselab/workloads.h"

namespace {

bool check_conv(const std::string &target) {
    const fuselab::Workload &w = fuselab::find_workload("conv_relu_pool");
    const fuselab::Size size = {97, 61, 3, 16};  // straddles the schedule's tiles
    fuselab::Buffers buffers = fuselab::make_buffers(w, size, 2026);
    const fuselab::RefBuffers ref = w.reference(buffers, size);
    const fuselab::Variant &v = fuselab::find_variant("conv_relu_pool", "tiled", target);
    fuselab::invoke(v, fuselab::bind(buffers));
    auto &out = buffers.at("out");
    out.copy_to_host();  // a CUDA variant leaves its outputs on the device
    const fuselab::OutputCheck c = fuselab::check_output(w, size, out, ref.at("out"));
    std::printf("%s at %s: relative error %.1e (tolerance %.0e), %lld elements out of bounds %s\n",
                v.name().c_str(), fuselab::format_size(size).c_str(), c.rel_err, w.tolerance,
                static_cast<long long>(c.bad_elements), c.worst.c_str());
    return c.ok;
}

bool check_typed_call() {
    const fuselab::Workload &w = fuselab::find_workload("conv_relu_pool");
    const fuselab::Size size = {34, 20, 3, 16};
    fuselab::Buffers b = fuselab::make_buffers(w, size, 7);
    const fuselab::RefBuffers ref = w.reference(b, size);
    const int code = conv_relu_pool__tiled__cpu(b.at("input"), b.at("weights"), b.at("bias"),
                                                b.at("out"));
    const fuselab::OutputCheck c = fuselab::check_output(w, size, b.at("out"), ref.at("out"));
    std::printf("conv_relu_pool__tiled__cpu(...) typed call: status %d, relative error %.1e %s\n",
                code, c.rel_err, c.worst.c_str());
    return code == 0 && c.ok;
}

}  // namespace

int main() {
    bool ok = true;
    try {
        ok &= check_conv("cpu");
        ok &= check_typed_call();
        if (fuselab::cuda_status().usable) {
            ok &= check_conv("cuda");
        } else {
            std::printf("conv_relu_pool/tiled/cuda: skipped, no usable CUDA device: %s\n",
                        fuselab::cuda_status().reason.c_str());
        }
        fuselab::BenchOptions opt;
        opt.pipelines = {"scale_bias_relu"};
        opt.budget_s = 0.2;
        ok &= fuselab::run_bench(opt) == 0;
    } catch (const fuselab::Error &e) {
        std::fprintf(stderr, "downstream: %s\n", e.what());
        return 1;
    }
    std::printf("downstream: %s\n", ok ? "all checks passed" : "A CHECK FAILED");
    return ok ? 0 : 1;
}
