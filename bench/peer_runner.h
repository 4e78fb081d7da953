// CPU peers in the bench's own run (issue 15): the inputs the bench made are written as .npy
// files, `peers/cpu_peers.py` (numpy, numexpr, onnxruntime, OpenCV) computes the same math on
// them and times itself, and its outputs come back to be checked against the same float64
// reference as fuselab's.
#pragma once

#include <string>
#include <vector>

#include "fuselab/workloads.h"

namespace fuselab {

struct PeerResult {
    std::string name;  // "numpy", "numexpr", "onnxruntime", "opencv"
    double median_us = 0, min_us = 0;
    int repeats = 0, calls_per_repeat = 0, threads = 0;
    std::string note, error;
    bool refused = false;  // error is the peer's own refusal of this type or size
    Buffers outputs;  // by output name, Halide order
};

// Runs `command` (a shell command prefix: "PYTHON peers/cpu_peers.py") on the workload's inputs
// at this size; one result per peer that implements the workload (none: an empty list). Throws
// Error when the command cannot run at all.
// Inputs are written in the storage type `dtype` (bfloat16 as '<u2' bits), which the command
// is told (--dtype).
std::vector<PeerResult> run_cpu_peers(const std::string &command, const Workload &w,
                                      const Size &size, const std::string &dtype,
                                      const Buffers &inputs, double budget_s);

}  // namespace fuselab
