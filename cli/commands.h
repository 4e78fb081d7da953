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
    std::vector<std::string> inputs, outputs;  // NAME=FILE
};
int run_command(const RunOptions &opt);

using fuselab::resolve_target;

}  // namespace fuselab::cli
