// `fuselab overhead`: the host cost of one call of add_relu/fused at a launch-bound size, through
// each C++ layer, in one loop each, one process: Halide's own NAME_argv call, fuselab::invoke
// with its bindings made once, and the lean call (call_plan.h), with and without the overlap
// check. The Python and torch layers are timed by peers/call_overhead.py. CUDA buffers are
// device-only, as a torch tensor's are; each sample is a loop of --calls calls ending with a sync.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <random>
#include <vector>

#include "HalideBuffer.h"
#include "HalideRuntimeCuda.h"
#include "commands.h"
#include "fuselab/call_plan.h"
#include "fuselab/device.h"
#include "fuselab/error.h"
#include "fuselab/invoke.h"
#include "fuselab/registry.h"

namespace fuselab::cli {
namespace {

using Clock = std::chrono::steady_clock;

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
}

}  // namespace

int overhead_command(const OverheadOptions &opt) {
    const std::string target = resolve_target(opt.target);
    const Variant &v = find_variant("add_relu", "fused", target);
    const bool cuda = v.is_cuda();
    const int n = opt.n;
    Halide::Runtime::Buffer<float> a(n), b(n), out(n);
    std::mt19937 rng(std::random_device{}());
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    for (int i = 0; i < n; i++) a(i) = u(rng), b(i) = u(rng), out(i) = NAN;
    // Device-only views for CUDA: the device copies, no host pointer.
    halide_buffer_t ra = *a.raw_buffer(), rb = *b.raw_buffer(), rout = *out.raw_buffer();
    if (cuda) {
        for (halide_buffer_t *h : {a.raw_buffer(), b.raw_buffer(), out.raw_buffer()}) {
            h->flags |= halide_buffer_flag_host_dirty;
            to_device(h, v.name());
        }
        ra = *a.raw_buffer(), rb = *b.raw_buffer(), rout = *out.raw_buffer();
        for (halide_buffer_t *h : {&ra, &rb, &rout}) h->host = nullptr, h->flags = 0;
    }
    const CallPlan &plan = call_plan(v);
    halide_buffer_t *ordered[3];
    for (const auto &[name, buf] : {std::pair{"a", &ra}, {"b", &rb}, {"out", &rout}})
        ordered[plan.index(name)] = buf;
    const Bindings bindings{{"a", &ra}, {"b", &rb}, {"out", &rout}};
    auto sync = [&] {
        if (cuda) device_sync(&rout, v.name());
    };

    // The answer first, through the lean call.
    plan.invoke(ordered, nullptr);
    if (cuda) {
        out.raw_buffer()->flags |= halide_buffer_flag_device_dirty;
        to_host(out.raw_buffer(), v.name());
    }
    for (int i = 0; i < n; i++) {
        if (out(i) != std::max(a(i) + b(i), 0.0f))
            throw Error("overhead: add_relu/fused/" + target + " gave a wrong answer at " +
                        std::to_string(i));
    }

    const std::vector<std::pair<std::string, std::function<void()>>> paths = {
        {"halide argv", [&] { v.argv(reinterpret_cast<void **>(ordered)); }},
        {"fuselab::invoke", [&] { invoke(v, bindings); }},
        {"CallPlan::invoke", [&] { plan.invoke(ordered, nullptr); }},
        {"CallPlan::invoke (fresh outputs)", [&] { plan.invoke(ordered, nullptr, true); }},
    };
    nlohmann::json records = nlohmann::json::array();
    for (const auto &[name, fn] : paths) {
        for (int i = 0; i < std::max(50, opt.calls / 10); i++) fn();
        sync();
        std::vector<double> samples;
        for (int r = 0; r < opt.repeats; r++) {
            const auto t0 = Clock::now();
            for (int i = 0; i < opt.calls; i++) fn();
            sync();
            samples.push_back(std::chrono::duration<double, std::micro>(Clock::now() - t0).count() /
                              opt.calls);
        }
        const double med = median(samples);
        std::printf("%-36s %8.2f us per call\n", name.c_str(), med);
        records.push_back({{"kind", "call_overhead"},
                           {"workload", "add_relu"},
                           {"size", std::to_string(n)},
                           {"name", "C++ " + name},
                           {"device", cuda ? "cuda" : "cpu"},
                           {"host_us", med},
                           {"samples_us", samples},
                           {"calls_per_repeat", opt.calls},
                           {"repeats", opt.repeats}});
    }
    if (!opt.json.empty()) {
        std::ofstream f(opt.json);
        f << nlohmann::json{{"records", records}}.dump(1) << "\n";
        if (!f) throw Error("overhead: could not write " + opt.json);
    }
    return 0;
}

}  // namespace fuselab::cli
