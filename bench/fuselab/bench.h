// The bench table: every strategy of a pipeline side by side on one target, at the workload's
// sizes, each output checked against the float64 reference first, with the ledger (kernels,
// intermediate bytes) beside the times. `fuselab bench` is this; a downstream project calls it
// for its own pipelines (README, "Your own pipeline").
#pragma once

#include <string>
#include <vector>

namespace fuselab {

struct BenchOptions {
    std::string target = "auto";  // auto: cuda if usable, else cpu
    std::vector<std::string> pipelines, schedules;  // empty: all registered
    std::vector<std::string> dtypes;                // storage types; empty: all built
    // Override the workloads' sizes (repeatable); every chosen pipeline must take their format.
    std::vector<std::string> sizes;
    std::string json;               // also write the table here
    double budget_s = 0.4;          // host timing, per variant and size
    double device_budget_s = 0.25;  // then event timing, CUDA variants only
    bool check = true;
    bool once = false;   // one call per variant and size: no warm-up, no timing (for ncu)
    bool cupti = false;  // after timing, trace a few calls with CUPTI: launches, kernel time
    // CPU runs: the command that times the CPU peers on the same inputs ("PYTHON
    // peers/cpu_peers.py", peer_runner.h); their rows join the table. Empty: no peers.
    std::string peers;
};

// Prints the table on stdout and progress on stderr; returns 0, 2 if an output was wrong, or 3 if
// a row failed with an error other than a variant's documented refusal (Refusal, error.h).
// Throws Error when the run cannot start (no usable device for --target cuda, a bad size).
int run_bench(const BenchOptions &opt);

// "cuda" if a device is usable, else "cpu"; an explicit "cpu"/"cuda" is returned as is.
std::string resolve_target(const std::string &target);

}  // namespace fuselab
