// `fuselab overhead`: the host cost of one call of add_relu/fused at a launch-bound size, through
// each C++ layer, in one loop each, one process: Halide's own NAME_argv call, fuselab::invoke
// with its bindings made once, and the lean call (call_plan.h), with and without the overlap
// check. The Python and torch layers are timed by peers/call_overhead.py. CUDA buffers are
// device-only, as a torch tensor's are; each sample is a loop of --calls calls ending with a sync.
// First, the choice's own cost (issue 29: at most 50 us at a new shape): fuselab::choose for
// softmax at its first call in the process (the shipped tables loaded), at shapes the process has
// not seen, and at a seen one (the process's cache).
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
#include "fuselab/choose.h"
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

double since_us(Clock::time_point t0) {
    return std::chrono::duration<double, std::micro>(Clock::now() - t0).count();
}

nlohmann::json choice_record(const std::string &name, const std::string &size,
                             const std::string &target, double us,
                             const std::vector<double> &samples = {}) {
    std::printf("%-36s %8.2f us\n", name.c_str(), us);
    return {{"kind", "choice_cost"}, {"workload", "softmax"}, {"size", size},
            {"name", "C++ " + name}, {"device", target},      {"host_us", us},
            {"samples_us", samples}};
}

// fuselab::choose("softmax") on float32 [N, M] views of one allocation (device-only for CUDA):
// the first call in the process, `calls` shapes it has not seen, then one seen shape again.
void choice_costs(const std::string &target, int calls, nlohmann::json &records) {
    const int capacity = 1 << 22;
    Halide::Runtime::Buffer<float> x(capacity), out(capacity);
    halide_buffer_t rx = *x.raw_buffer(), rout = *out.raw_buffer();
    if (target == "cuda") {
        for (halide_buffer_t *h : {x.raw_buffer(), out.raw_buffer()}) {
            h->flags |= halide_buffer_flag_host_dirty;
            to_device(h, "overhead");
        }
        rx = *x.raw_buffer(), rout = *out.raw_buffer();
        for (halide_buffer_t *h : {&rx, &rout}) h->host = nullptr, h->flags = 0;
    }
    halide_dimension_t dx[2], dout[2];
    rx.dimensions = rout.dimensions = 2, rx.dim = dx, rout.dim = dout;
    auto shape = [&](int n, int m) {
        for (halide_dimension_t *d : {dx, dout}) d[0] = {0, n, 1, 0}, d[1] = {0, m, n, 0};
    };
    const Bindings args{{"x", &rx}, {"out", &rout}};
    ChooseOptions o;
    o.target = target;
    shape(1000, 512);
    auto t0 = Clock::now();
    choose("softmax", args, o);
    records.push_back(
        choice_record("choose: first call in the process", "1000x512", target, since_us(t0)));
    std::vector<double> samples;
    for (int i = 0; i < calls; i++) {
        const int n = 1001 + 37 * i, m = std::max(1, std::min(64 + (i * 7) % 2000, capacity / n));
        shape(n, m);
        t0 = Clock::now();
        choose("softmax", args, o);
        samples.push_back(since_us(t0));
    }
    records.push_back(
        choice_record("choose: a new shape", "new shapes", target, median(samples), samples));
    shape(1000, 512);  // the first call's, in the process's cache
    std::vector<double> again;
    for (int r = 0; r < 5; r++) {
        t0 = Clock::now();
        for (int i = 0; i < 1000; i++) choose("softmax", args, o);
        again.push_back(since_us(t0) / 1000);
    }
    records.push_back(
        choice_record("choose: a seen shape", "1000x512", target, median(again), again));
}

}  // namespace

int overhead_command(const OverheadOptions &opt) {
    const std::string target = resolve_target(opt.target);
    nlohmann::json records = nlohmann::json::array();
    choice_costs(target, 200, records);
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
