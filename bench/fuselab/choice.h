// How well the cost model (choose.h) chooses a strategy for a shape it has never seen: for every
// (workload, size) of a run, the model fitted on the run's other (workload, size) pairs only, its
// pick among the strategies measured there, the measured winner, and the regret (the pick's time
// over the winner's). Peers and hand-written kernels are left out: the model chooses among
// fuselab's strategies.
#pragma once

#include <string>
#include <vector>

#include "fuselab/choose.h"

namespace fuselab {

struct Measured {
    std::string workload, size, schedule, dtype = "float32";
    CostSample sample;  // its features and measured time
};

struct ChoiceRow {
    std::string workload, size, predicted, measured, dtype = "float32";
    double predicted_us = 0, measured_us = 0, regret = 1;  // regret: pick's time / winner's
};

std::vector<ChoiceRow> leave_one_out(const std::string &device, const std::vector<Measured> &rows);

// Prints the table, worst regret last, with how many are within `bound` (1.10).
void print_choice_table(const std::vector<ChoiceRow> &rows, double bound = 1.10);

}  // namespace fuselab
