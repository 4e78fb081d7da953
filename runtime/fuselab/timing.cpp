#include "fuselab/timing.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <utility>
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

// The median (the mean of the middle two for an even count, as torch.quantile(0.5) and so
// do_bench take it) and the smallest.
std::pair<double, double> median_and_min(std::vector<double> samples) {
    std::sort(samples.begin(), samples.end());
    const size_t n = samples.size();
    const double median = n % 2 ? samples[n / 2] : (samples[n / 2 - 1] + samples[n / 2]) / 2;
    return {median, samples.front()};
}

// The number of back-to-back calls that lasts at least min_batch_s. A single call's time
// includes a whole sync latency, so a batch sized from it falls short: size the next batch from
// the last one (10% over) until one measured batch is long enough. These batches are warm-up too.
int calls_per_batch(const Variant &v, const Bindings &args, double min_batch_s) {
    constexpr int kMaxCalls = 1 << 24;
    int calls = 1;
    for (;;) {
        const double per_call = run_batch(v, args, calls);
        if (per_call * calls >= min_batch_s || calls >= kMaxCalls) return calls;
        // More than `calls`, since this batch was shorter than min_batch_s.
        const double wanted = std::ceil(1.1 * min_batch_s / std::max(per_call, 1e-9));
        calls = static_cast<int>(std::min<double>(kMaxCalls, std::max<double>(calls + 1, wanted)));
    }
}

void time_host(const Variant &v, const Bindings &args, const TimingOptions &opt, Timing &t) {
    const int calls = calls_per_batch(v, args, opt.min_batch_s);
    std::vector<double> samples;
    const auto t0 = Clock::now();
    while (
        static_cast<int>(samples.size()) < opt.min_repeats ||
        (seconds_since(t0) < opt.budget_s && static_cast<int>(samples.size()) < opt.max_repeats)) {
        samples.push_back(run_batch(v, args, calls));
    }
    const auto [median, min] = median_and_min(samples);
    t.host_median_us = median * 1e6;
    t.host_min_us = min * 1e6;
    t.host_repeats = static_cast<int>(samples.size());
    t.calls_per_batch = calls;
}

// As triton's do_bench: every call after an L2 flush, between two events on stream 0 (where
// Halide launches; see DeviceTimer), all enqueued first, then one wait and every elapsed time.
void time_device(const Variant &v, const Bindings &args, const TimingOptions &opt, Timing &t) {
    const double per_call_s = std::max(t.host_median_us * 1e-6, 1e-9);
    const int n =
        static_cast<int>(std::clamp<double>(std::floor(opt.device_budget_s / per_call_s),
                                            opt.min_device_repeats, opt.max_device_repeats));
    DeviceTimer timer(v.name(), n);
    for (int i = 0; i < opt.device_warmup; i++) {  // the scratch's first touch, the sequence
        timer.flush_l2();
        invoke(v, args);
    }
    for (int i = 0; i < n; i++) {
        timer.flush_l2();
        timer.record_start(i);
        invoke(v, args);
        timer.record_end(i);
    }
    std::vector<double> us = timer.elapsed_ms();
    for (double &x : us) x *= 1e3;
    const auto [median, min] = median_and_min(us);
    t.device_median_us = median;
    t.device_min_us = min;
    t.device_repeats = n;
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
    Timing t;
    time_host(v, args, opt, t);
    if (v.is_cuda()) time_device(v, args, opt, t);
    return t;
}

}  // namespace fuselab
