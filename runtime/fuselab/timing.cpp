#include "fuselab/timing.h"

#include <algorithm>
#include <chrono>
#include <vector>

#include "fuselab/device.h"

namespace fuselab {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) {
    return std::chrono::duration<double>(Clock::now() - t0).count();
}

// Seconds per call over `calls` back-to-back calls, ending with a device sync.
double run_batch(const Variant &v, const Bindings &args, int calls) {
    const auto t0 = Clock::now();
    for (int i = 0; i < calls; i++) invoke(v, args);
    sync_outputs(v, args);
    return seconds_since(t0) / calls;
}

}  // namespace

void sync_outputs(const Variant &v, const Bindings &args) {
    if (!v.is_cuda()) return;
    const halide_filter_metadata_t *md = v.metadata();
    for (int i = 0; i < md->num_arguments; i++) {
        if (md->arguments[i].kind == halide_argument_kind_output_buffer) {
            device_sync(args.at(md->arguments[i].name), v.name());
        }
    }
}

Timing time_variant(const Variant &v, const Bindings &args, const TimingOptions &opt) {
    // Warm-up: module load and JIT, allocation caches, page faults.
    run_batch(v, args, 1);
    const double one = run_batch(v, args, 1);
    const int calls = std::max(1, static_cast<int>(opt.min_batch_s / std::max(one, 1e-9)));

    std::vector<double> samples;
    const auto t0 = Clock::now();
    while (
        static_cast<int>(samples.size()) < opt.min_repeats ||
        (seconds_since(t0) < opt.budget_s && static_cast<int>(samples.size()) < opt.max_repeats)) {
        samples.push_back(run_batch(v, args, calls));
    }
    std::sort(samples.begin(), samples.end());
    Timing t;
    t.median_us = samples[samples.size() / 2] * 1e6;
    t.min_us = samples.front() * 1e6;
    t.repeats = static_cast<int>(samples.size());
    t.calls_per_repeat = calls;
    return t;
}

}  // namespace fuselab
