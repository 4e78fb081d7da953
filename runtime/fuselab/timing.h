// Timing a variant properly: warm-up (the first CUDA call JIT-compiles the PTX), then two
// measures.
//
// host: wall clock per call over batches of back-to-back calls, each batch ending with a device
//   sync and lasting at least min_batch_s, median over the batches. It includes what the host
//   does per call (argument checks, Halide's launches) wherever that is not hidden behind the
//   GPU's work.
// device (CUDA variants only): per call, like triton's do_bench, which times the PyTorch peers:
//   flush L2, record a CUDA event, call, record an event, on the stream the kernels run on; the
//   GPU time between the two events, median over the calls. The flush gives the host a head
//   start, so this hides the host's share of a call; it is the figure comparable with the peers.
#pragma once

#include "fuselab/invoke.h"

namespace fuselab {

struct Timing {
    // Host wall clock per call (every target).
    double host_median_us = 0;
    double host_min_us = 0;
    int host_repeats = 0;  // batches; 0: not timed
    int calls_per_batch = 0;
    // Device events around each call after an L2 flush (CUDA variants; 0 when not measured).
    double device_median_us = 0;
    double device_min_us = 0;
    int device_repeats = 0;  // calls timed

    bool has_device() const { return device_repeats > 0; }
    // The figure to compare with the peers (do_bench): device events where measured, else host.
    double median_us() const { return has_device() ? device_median_us : host_median_us; }
    double min_us() const { return has_device() ? device_min_us : host_min_us; }
    const char *method() const { return has_device() ? "events" : "host"; }  // of median_us()
};

struct TimingOptions {
    // Host batches: stop after budget_s of measuring, once min_repeats batches are done.
    double budget_s = 0.5;
    int min_repeats = 5;
    int max_repeats = 100;
    // Each batch runs at least this long. At 1 ms a 750 us call made a batch of one call, and
    // every sample carried a whole launch latency and a whole sync latency (10-23 us per call
    // seen on an H200); 20 ms holds about 27 such calls, which share one of each.
    double min_batch_s = 20e-3;
    // Device events (CUDA variants): about this long in all, as many calls as the host median
    // says fit, clamped to [min_device_repeats, max_device_repeats], after device_warmup untimed
    // flush-and-call repeats. The flushes come on top (at most max_device_repeats of them).
    double device_budget_s = 0.25;
    int min_device_repeats = 10;
    int max_device_repeats = 1000;
    int device_warmup = 3;
};

// Throws Error (naming the variant) when a call fails or event timing cannot be set up.
Timing time_variant(const Variant &v, const Bindings &args, const TimingOptions &opt = {});

// Waits for the device work that writes the variant's outputs (nothing to wait for on the CPU).
void sync_outputs(const Variant &v, const Bindings &args);

}  // namespace fuselab
