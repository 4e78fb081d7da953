// Workloads: what a pipeline computes, as data the bench, the tests and `fuselab run` share: its
// argument shapes for a size, its float64 reference, tolerance and default sizes. The built-in
// suite (../shared/WORKLOADS.md) registers its own; a downstream project declares its pipelines'
// the same way (README, "Your own pipeline"):
//
//   fuselab::Workload w;  // fill in the fields below
//   static const fuselab::WorkloadRegistration registered(w);  // or register_workload(w)
//
// The float64 reference is the independent definition every variant is checked against.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <string>
#include <vector>

#include "HalideBuffer.h"
#include "fuselab/invoke.h"

namespace fuselab {

using Size = std::vector<int>;                           // N | W, H | W, H, C, K: size_format
using Shapes = std::map<std::string, std::vector<int>>;  // argument -> extents (Halide order)
using Buffers = std::map<std::string, Halide::Runtime::Buffer<float>>;
using RefBuffers = std::map<std::string, Halide::Runtime::Buffer<double>>;

struct ArgShape {
    std::string name;
    std::vector<int> extents;  // Halide order: dimension 0 fastest
    bool output;
};

// The bound on every element of an output: |out - ref| <= atol + rtol |ref|.
struct ElementTolerance {
    double atol, rtol;
};

struct Workload {
    std::string pipeline;
    std::string size_format;  // "N", "WxH" (output extents), "WxHxCxK"
    double tolerance;         // on relative_error(out, ref), the norm
    // Every element's bound at a size (each workload says why it is what it is). Null: the norm's
    // tolerance as both atol and rtol.
    ElementTolerance (*element_tolerance)(const Size &) = nullptr;
    // A pipeline that comes in several storage types (dtype.h's names) says how each is checked:
    // its norm's tolerance and every element's bound in that type. Null: `tolerance` and
    // `element_tolerance`, as for float32.
    // And its float64 reference where the math itself rounds to the type (rmsnorm_residual's h).
    double (*tolerance_in)(const std::string &dtype) = nullptr;
    ElementTolerance (*element_tolerance_in)(const Size &, const std::string &dtype,
                                             const std::string &output) = nullptr;
    RefBuffers (*reference_in)(const Buffers &inputs, const Size &size,
                               const std::string &dtype) = nullptr;
    std::vector<Size> cpu_sizes, cuda_sizes;  // bench sizes; the first is the default
    // How much each size dimension decides which strategy wins, for the nearest measured shapes
    // (measured.h): empty is 1 for each.
    std::vector<double> choice_weights;
    // ... and the weight of each dimension's alignment class (measured.h: MeasuredFeature), 0
    // where absent.
    std::vector<double> choice_align_weights;
    // ... and of a difference in whether the dimension is whole 16-byte vectors (measured.h:
    // MeasuredFeature::vector_weight), 0 where absent.
    std::vector<double> choice_vector_weights;
    // ... and, on the CPU only, the weight of the first feature's argument's element count (a
    // feature of its own, measured.h: dim -1), 0 for none: there the call's footprint against the
    // caches moves the winners as much as the row's shape does.
    double cpu_choice_elements_weight = 0;
    // ... and, on the CPU only, a length of the first dimension where a strategy changes its code,
    // with its weight (measured.h: MeasuredFeature::split), 0 for none.
    double cpu_choice_split = 0, cpu_choice_split_weight = 0;
    // ... and a second such length, with the same weight (MeasuredFeature::short_split).
    double cpu_choice_short_split = 0;
    // ... and, on the CPU only, whether the first dimension's vector (choice_vector_weights) is
    // the host's float32 lanes rather than 16 bytes (MeasuredFeature::vector_lanes, from the
    // table's device name: cpu_lanes_of).
    bool cpu_choice_vector_lanes = false;
    // ... and, on CUDA only, the weight of the first dimension's chunk fills (measured.h:
    // MeasuredFeature::fill_weight), 0 for none.
    double cuda_choice_fill_weight = 0;
    // ... and the weight of its side of the exact lengths (MeasuredFeature::exact_weight).
    double cuda_choice_exact_weight = 0;
    std::vector<Size> test_sizes;  // odd ones, smaller than tiles, barely over halos
    std::vector<ArgShape> (*shapes)(const Size &);
    RefBuffers (*reference)(const Buffers &inputs, const Size &size);
    double (*flops)(const Size &);          // useful arithmetic per call (0: memory-bound)
    Size (*size_of)(const Shapes &inputs);  // the size that inputs of these extents imply
};

// Registration, from any static initializer or at run time. A second workload of the same
// pipeline name replaces nothing: it is ignored with a message on stderr.
void register_workload(const Workload &w);
struct WorkloadRegistration {
    explicit WorkloadRegistration(const Workload &w) { register_workload(w); }
};

const std::deque<Workload> &workloads();
const Workload &find_workload(const std::string &pipeline);  // throws Error

Size parse_size(const Workload &w, const std::string &text);  // throws Error
std::string format_size(const Size &s);                       // "1920x1080"

// The size that inputs of these shapes imply, checking that every input is there with the rank
// and extents the math defines (throws Error naming the input otherwise).
Size size_from_inputs(const Workload &w, const Shapes &inputs);
Size size_from_inputs(const Workload &w, const Buffers &inputs);
// The output shapes for a size (by name).
Shapes output_shapes(const Workload &w, const Size &size);

// All of a workload's buffers for a size: inputs uniform in [-1, 1] from `seed` (rounded to
// `dtype`: values of that storage type, held as float32), outputs poisoned with NaN so that an
// unwritten element fails any check.
Buffers make_buffers(const Workload &w, const Size &size, uint64_t seed,
                     const std::string &dtype = "float32");
void poison_outputs(const Workload &w, const Size &size, Buffers &buffers);
Bindings bind(Buffers &buffers);

// A variant's arguments in its storage type. float32: the value buffers themselves. Otherwise a
// copy of each in the type (exact: make_buffers and the .npy reader give values of the type),
// whose outputs fetch() widens back into the value buffers. The values must outlive it.
class StorageBuffers {
public:
    StorageBuffers(const Workload &w, const Size &size, Buffers &values, const std::string &dtype);
    Bindings bind();
    halide_buffer_t *raw(const std::string &name);  // what bind() binds under that name
    // Poisons every output (NaN in the type) for the next call.
    void poison();
    // Every output to the host and, in a narrow type, widened into its value buffer; `who`
    // names the caller in errors (a CUDA copy failing).
    void fetch(const std::string &who);
    const std::string &dtype() const { return dtype_; }

private:
    const Workload &w_;
    Size size_;
    Buffers &values_;
    std::string dtype_;
    std::map<std::string, Halide::Runtime::Buffer<uint16_t>> narrow_;
};

// The fewest bytes a call must move: every input read once, every output written once.
int64_t min_bytes(const Workload &w, const Size &size, const std::string &dtype = "float32");

// The variant's intermediate bytes at a size, from its build-time ledger (-1 if unknown).
int64_t intermediate_bytes_at(const Variant &v, const Size &size);

// ||out - ref|| / max(||ref||, sqrt(n)) over the n elements: relative, except where the
// reference's RMS is below 1, where it is the RMS error. (Inputs are O(1): a tiny output whose
// terms cancel, a 1x1 blur near 0, would otherwise turn float rounding into a large relative
// error.) Elements where the reference is NaN or infinite count when `out` matches them (the
// same infinity, or NaN) and are left out of the norm; +inf if any other element is NaN or
// infinite.
double relative_error(const Halide::Runtime::Buffer<float> &out,
                      const Halide::Runtime::Buffer<double> &ref);

// One output against its reference: the norm (relative_error <= w.tolerance) and every element
// (within w.element_tolerance, or the same NaN or infinity as the reference).
struct OutputCheck {
    double rel_err = 0;
    int64_t bad_elements = 0;  // elements outside their bound
    std::string worst;         // the element furthest outside its bound, in words ("" if none)
    bool ok = true;
};
OutputCheck check_output(const Workload &w, const Size &size,
                         const Halide::Runtime::Buffer<float> &out,
                         const Halide::Runtime::Buffer<double> &ref,
                         const std::string &dtype = "float32", const std::string &output = "");
// The norm's tolerance, an output's element bound and the reference in a storage type.
double tolerance_of(const Workload &w, const std::string &dtype);
ElementTolerance element_tolerance_of(const Workload &w, const Size &size, const std::string &dtype,
                                      const std::string &output);
RefBuffers reference_of(const Workload &w, const Buffers &inputs, const Size &size,
                        const std::string &dtype);

}  // namespace fuselab
