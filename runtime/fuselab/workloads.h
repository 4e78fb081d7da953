// The workloads of ../shared/WORKLOADS.md as data: each pipeline's argument shapes for a size,
// its float64 reference, its tolerance and its default sizes. Tests, the bench and `fuselab run`
// all read them from here.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "HalideBuffer.h"
#include "fuselab/invoke.h"

namespace fuselab {

using Size = std::vector<int>;  // N | W, H | W, H, C, K: see Workload::size_format
using Buffers = std::map<std::string, Halide::Runtime::Buffer<float>>;
using RefBuffers = std::map<std::string, Halide::Runtime::Buffer<double>>;

struct ArgShape {
    std::string name;
    std::vector<int> extents;  // Halide order: dimension 0 fastest
    bool output;
};

struct Workload {
    std::string pipeline;
    std::string size_format;                  // "N", "WxH" (output extents), "WxHxCxK"
    double tolerance;                         // on ||out - ref|| / ||ref||
    std::vector<Size> cpu_sizes, cuda_sizes;  // bench sizes; the first is the default
    std::vector<Size> test_sizes;             // odd ones, smaller than tiles, barely over halos
    std::vector<ArgShape> (*shapes)(const Size &);
    RefBuffers (*reference)(const Buffers &inputs, const Size &size);
    double (*flops)(const Size &);  // useful arithmetic per call (0: memory-bound, not counted)
    Size (*size_of)(const Buffers &inputs);  // the size that given inputs imply
};

const std::vector<Workload> &workloads();
const Workload &find_workload(const std::string &pipeline);  // throws Error

Size parse_size(const Workload &w, const std::string &text);  // throws Error
std::string format_size(const Size &s);                       // "1920x1080"

// Output shapes that follow from the given inputs, as the math defines them (fuselab run).
Size size_from_inputs(const Workload &w, const Buffers &inputs);

// All of a workload's buffers for a size: inputs uniform in [-1, 1] from `seed`, outputs
// poisoned with NaN so that an unwritten element fails any check.
Buffers make_buffers(const Workload &w, const Size &size, uint64_t seed);
void poison_outputs(const Workload &w, const Size &size, Buffers &buffers);
Bindings bind(Buffers &buffers);

// The fewest bytes a call must move: every input read once, every output written once.
int64_t min_bytes(const Workload &w, const Size &size);

// The variant's intermediate bytes at a size, from its build-time ledger (-1 if unknown).
int64_t intermediate_bytes_at(const Variant &v, const Size &size);

// ||out - ref|| / max(||ref||, sqrt(n)) over the n elements: relative, except where the
// reference's RMS is below 1, where it is the RMS error. (Inputs are O(1): a tiny output whose
// terms cancel, a 1x1 blur near 0, would otherwise turn float rounding into a large relative
// error.) +inf if any element is NaN or infinite.
double relative_error(const Halide::Runtime::Buffer<float> &out,
                      const Halide::Runtime::Buffer<double> &ref);

namespace workloads_detail {
// One per file under runtime/workloads/.
Workload add_relu();
Workload conv_relu_pool();
Workload pointwise_chain();
Workload branches();
Workload branches_indep();
Workload blur3x3();
Workload stencil_chain_k2();
Workload stencil_chain_k4();
Workload stencil_chain_k8();
Workload two_convs();
Workload two_convs_indep();
}  // namespace workloads_detail

}  // namespace fuselab
