// Timing a variant properly: warm-up (the first CUDA call JIT-compiles the PTX), device sync,
// batches of back-to-back calls so that a launch-bound call is not drowned by the sync, and the
// median over repeats.
#pragma once

#include "fuselab/invoke.h"

namespace fuselab {

struct Timing {
    double median_us = 0;  // per call
    double min_us = 0;
    int repeats = 0;
    int calls_per_repeat = 0;
};

struct TimingOptions {
    double budget_s = 0.5;  // stop repeating after this much measuring, once min_repeats are done
    int min_repeats = 5;
    int max_repeats = 100;
    double min_batch_s = 1e-3;  // each repeat runs at least this long
};

Timing time_variant(const Variant &v, const Bindings &args, const TimingOptions &opt = {});

// Waits for the device work that writes the variant's outputs (nothing to wait for on the CPU).
void sync_outputs(const Variant &v, const Bindings &args);

}  // namespace fuselab
