// The `fuselab` command's subcommands.
#pragma once

#include <string>
#include <vector>

namespace fuselab::cli {

struct ListOptions {
    std::string target;  // "", "cpu" or "cuda"
    bool sizes = false;  // one line per variant and default bench size, for scripts
};
int list_command(const ListOptions &opt);

struct BenchOptions {
    std::string target = "auto";  // auto: cuda if usable, else cpu
    std::vector<std::string> pipelines, schedules;
    std::string size;               // overrides the workload's sizes (needs one pipeline)
    std::string json;               // also write the table here
    double budget_s = 0.4;          // host timing, per variant and size
    double device_budget_s = 0.25;  // then event timing, CUDA variants only
    bool check = true;
    bool once = false;   // one call per variant and size: no warm-up, no timing (for ncu)
    bool cupti = false;  // after timing, trace a few calls with CUPTI: launches, kernel time
};
int bench_command(const BenchOptions &opt);

struct RunOptions {
    std::string pipeline, schedule, target = "auto";
    std::vector<std::string> inputs, outputs;  // NAME=FILE
};
int run_command(const RunOptions &opt);

// "cuda" if a device is usable, else "cpu"; an explicit "cpu"/"cuda" is returned as is.
std::string resolve_target(const std::string &target);

}  // namespace fuselab::cli
