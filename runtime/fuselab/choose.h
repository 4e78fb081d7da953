// Calling a pipeline, not a strategy: the strategy for these arguments, this target and this
// device, chosen from what was measured, else predicted.
//
//   1. a tuning record for (device, driver, fuselab build, pipeline, storage type, argument
//      shapes): the winner `fuselab tune` (or an earlier self-tuning call) measured;
//   2. with FUSELAB_TUNE=1 or ChooseOptions::tune: every strategy timed now, on the caller's
//      buffers, and the winner recorded (as cudnn.benchmark does);
//   3. else the shapes measured on this device (measured.h, the shipped results/measured.json):
//      where one of the same pipeline and storage type is near (in log2 of its extents), the
//      strategy the three nearest favour (each strategy's time over each one's winner, weighted
//      by nearness); where none is within kMeasuredNear, those within kMeasuredFar;
//   4. else the cost model (CostModel): each strategy's time predicted from its ledger (kernel
//      launches, bytes through memory, intermediates) with the device's fitted coefficients,
//      from the tuning file's fit, else the shipped fit for this device, else generic ones.
//      A strategy the fit never measured ranks below every measured one.
//
// The tuning file is JSON, FUSELAB_TUNING_FILE or $XDG_CACHE_HOME/fuselab/tuning.json (else
// ~/.cache/fuselab/tuning.json). Writers take an exclusive lock and rename a complete new file
// into place, so that concurrent tuners never corrupt it; a corrupt or foreign file is ignored with
// one warning on stderr. FUSELAB_VERBOSE=1 prints each choice and why on stderr.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "fuselab/invoke.h"
#include "fuselab/timing.h"

namespace fuselab {

struct ChooseOptions {
    std::string target = "auto";  // "cpu", "cuda", or "auto": cuda where usable
    bool tune = false;            // time every strategy now (also FUSELAB_TUNE=1)
};

struct Choice {
    const Variant *variant = nullptr;
    std::string source;  // "tuned" (a record), "tuned now", "measured", "model", "only"
    std::string reason;  // one line: what was compared, and the figures
};

// The strategy for these arguments. Throws Error naming the pipeline when no strategy can take
// them (an unknown pipeline, arguments that disagree with it or with each other).
Choice choose(const std::string &pipeline, const Bindings &args, const ChooseOptions &opt = {});

// choose(), then invoke() of the chosen variant; returns the choice.
Choice invoke(const std::string &pipeline, const Bindings &args, CudaStream stream = nullptr,
              const ChooseOptions &opt = {});

// Times every candidate strategy on these buffers (their outputs are overwritten), records the
// winner in the tuning file and returns the choice. Refusals (documented limits) are skipped.
Choice tune(const std::string &pipeline, const Bindings &args, const std::string &target = "auto",
            const TimingOptions &timing = {});

// ---- the cost model ----

// One measured call, as the bench records it.
struct CostSample {
    std::string pipeline, schedule;
    int kernels = 1;
    double bytes = 0;  // fewest bytes plus twice the intermediates' (written, then read)
    double us = 0;
};

// t = kernels * launch_us + efficiency * bytes / (gbps * 1e3), with efficiency per
// (pipeline, schedule), else per schedule over the pipelines that have it, else the typical one:
// the seed's launches-against-traffic reasoning (§1.5), with each strategy's distance from the
// copy ceiling measured at other shapes.
struct CostModel {
    std::string device;
    double launch_us = 5, gbps = 1000;
    std::map<std::string, double> efficiency;  // "pipeline/schedule" and "*/schedule"

    double predict_us(const std::string &pipeline, const std::string &schedule, int kernels,
                      double bytes) const;
    // Whether the fit measured the schedule (in this pipeline or another): else its efficiency
    // is only the typical one, and the choice ranks it below every measured strategy.
    bool measured(const std::string &pipeline, const std::string &schedule) const;
    static CostModel fit(const std::string &device, const std::vector<CostSample> &samples);
    std::string to_json() const;
    static CostModel from_json(const std::string &text);  // throws Error
};

// The model's inputs for a variant on these arguments: kernels and bytes (CostSample's).
CostSample cost_features(const Variant &v, const Bindings &args);

// The device this process chooses for ("NVIDIA H200", or the CPU's model name) and its key.
std::string device_name(const std::string &target);

// Where tuning records live, and writing a fitted model into that file for its device.
std::string tuning_file();
void record_model(const CostModel &model);

}  // namespace fuselab
