// How well fuselab chooses a strategy for a shape it has never seen: for every (workload, size,
// storage type) of a run, the choice made as choose() makes it (choose.h) with that size's own
// measurements left out: the nearest measured shapes of the run's other sizes (measured.h), else
// the cost model fitted on the other sizes; its pick among the strategies measured there, the
// measured winner, and the regret (the pick's time over the winner's, both from that run). Peers
// and hand-written kernels are left out: fuselab chooses among its own strategies.
#pragma once

#include <string>
#include <vector>

#include "fuselab/choose.h"
#include "fuselab/measured.h"

namespace fuselab {

struct Measured {
    std::string workload, size, schedule, dtype = "float32", target;
    CostSample sample;  // its features and measured time
};

struct ChoiceRow {
    std::string workload, size, predicted, measured, dtype = "float32";
    double predicted_us = 0, measured_us = 0, regret = 1;  // regret: pick's time / winner's
    std::string source;                                    // "measured" (nearest shapes) or "model"
};

// Each (workload, size, type)'s pick from the other sizes (measured_table's, with `cpu_lanes`).
std::vector<ChoiceRow> leave_one_out(const std::string &device, const std::vector<Measured> &rows,
                                     int cpu_lanes = -1);

// The run's rows as a table of measured shapes for choose(), each workload's features read from
// its argument shapes (Workload::choice_weights weighs them). `cpu_lanes`: the CPU rows' vector
// in elements where the workload weighs it (MeasuredFeature::vector_lanes): -1 the device's
// (cpu_lanes_of), 0 none (16 bytes).
MeasuredTable measured_table(const std::string &device, const std::string &source,
                             const std::vector<Measured> &rows, int cpu_lanes = -1);

// Of two leave-one-out tables of the same rows, whether `a` does better than `b`: more picks
// within `bound`, then the lower geometric mean regret.
bool better_choice(const std::vector<ChoiceRow> &a, const std::vector<ChoiceRow> &b,
                   double bound = 1.10);

// The leave-one-out of the table that `fuselab tune --fit` ships: where any row is the CPU's,
// with whichever vector, the device's lanes or 16 bytes, picks better (better_choice), and
// *cpu_lanes, where given, that vector as measured_table takes it (-1 the lanes, 0 16 bytes).
std::vector<ChoiceRow> fitted_leave_one_out(const std::string &device,
                                            const std::vector<Measured> &rows,
                                            int *cpu_lanes = nullptr);

// Prints the table, worst regret last, with how many are within `bound` (1.10).
void print_choice_table(const std::vector<ChoiceRow> &rows, double bound = 1.10);

}  // namespace fuselab
