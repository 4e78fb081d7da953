// The `fuselab` command's subcommands (`bench` is fuselab::run_bench, fuselab/bench.h).
#pragma once

#include <string>
#include <vector>

#include "fuselab/bench.h"

namespace fuselab::cli {

struct ListOptions {
    std::string target;  // "", "cpu" or "cuda"
    bool sizes = false;  // one line per variant and default bench size, for scripts
    bool json = false;   // every variant as a JSON record, with its arguments and kernels
};
int list_command(const ListOptions &opt);

struct RunOptions {
    std::string pipeline, schedule, target = "auto";
    std::string dtype;                         // the storage type; empty: the input files' own
    std::vector<std::string> inputs, outputs;  // NAME=FILE
};
int run_command(const RunOptions &opt);

struct TuneOptions {
    std::string target = "auto";
    std::vector<std::string> pipelines;  // empty: every pipeline built for the target
    std::string size;                    // instead of the workload's sizes (one pipeline)
    double budget_s = 0.1;               // host timing per strategy; half that of device events
    std::vector<std::string> fit;        // instead: fit the cost model from these bench JSONs
    bool record = false;                 // with fit: store the model in the tuning file
    std::string models_out;              // with fit: write every device's model here
    std::string choice_out;              // with one fit: its leave-one-out table and model
    std::string measured_out;            // with fit: every device's measured shapes (measured.h)
};
int tune_command(const TuneOptions &opt);

struct OverheadOptions {
    std::string target = "auto";
    int n = 4096;      // add_relu's length: launch-bound on a GPU
    int calls = 3000;  // a sample: this many calls back to back, then a sync
    int repeats = 5;   // samples; the median is reported
    std::string json;  // also write the records here
};
int overhead_command(const OverheadOptions &opt);

using fuselab::resolve_target;

}  // namespace fuselab::cli
