// What is registered, as JSON: for `fuselab list --json`, the Python package and scripts.
#pragma once

#include <string>

namespace fuselab {

// [{pipeline, schedule, target, kind, summary, autoscheduler, limit (null, "autoscheduled",
//   "one_shape" or "row_length": invoke.h's variant_limit), kernels, intermediates,
//   intermediate_bytes_at_default_size, default_size, arguments: [{name, kind, type,
//   dimensions}], cuda_kernels: [{name, registers, spill_store_bytes, spill_load_bytes,
//   shared_bytes, threads}]}, ...], in registration order; `target` "" for all.
std::string variants_json(const std::string &target = "");

// [{pipeline, size_format, tolerance, element_tolerance: {atol, rtol, at_size} (at the default CPU
//   size), cpu_sizes, cuda_sizes, arguments: [{name, output, dimensions}]}, ...]
std::string workloads_json();

}  // namespace fuselab
