// Calling any variant generically, through Halide's NAME_argv and NAME_metadata.
#pragma once

#include <map>
#include <string>

#include "HalideRuntime.h"
#include "fuselab/registry.h"

namespace fuselab {

// The caller's buffers, by argument name (a, b, out; x, y, out1, out2; input, weights, bias; in).
using Bindings = std::map<std::string, halide_buffer_t *>;

// A CUstream (cudaStream_t) of the device's primary context; nullptr is the legacy default
// stream, stream 0.
using CudaStream = void *;

// Checks the bindings against the variant's metadata (every argument bound and no other, type,
// rank, positive extents, memory present, outputs that overlap nothing, a usable device for CUDA
// variants), then runs it. Extents are checked by the pipeline's own constraints. Any failure
// throws Error naming the variant and the problem, before anything is written.
//
// Where the data is (CUDA variants): an input whose only copy is on the host is copied to the
// device whatever its dirty flags say; where it has both a host and a device copy, Halide's dirty
// flags decide which is current (set_host_dirty() after writing the host copy). Outputs are left
// on the device, marked device-dirty: copy_to_host() (or to_host()) brings them back. CPU variants
// read and write host memory, copying a device-dirty input back first.
//
// A variant may take a buffer as kernel parameters (scalar arguments <buffer>_param_0 ..
// _{n-1}, from a generator's Input<float[]> "<buffer>_param", which CUDA keeps in the constant
// bank): the caller binds the buffer, of exactly n elements, and invoke passes its elements in
// Halide's dense order (dimension 0 fastest), reading them back from the device if needed.
//
// `stream`: the CUDA stream the variant's copies and kernels are enqueued on, in the device's
// primary context (PyTorch's context); nothing waits for them unless a copy to pageable host
// memory must. Ignored by CPU variants. Calls from several threads at once are safe (README).
void invoke(const Variant &v, const Bindings &args, CudaStream stream = nullptr);

// What the checks of invoke() find wrong: nothing (false), an Error's words, or a Refusal's (a
// documented limit of the variant).
struct Problem {
    std::string what;
    bool refusal = false;
    explicit operator bool() const { return !what.empty(); }
};

// Only the checks of invoke(), without exceptions (choose() asks each candidate).
Problem check(const Variant &v, const Bindings &args);

// Only the checks of invoke(): throws check()'s Problem, as a Refusal or an Error.
void validate(const Variant &v, const Bindings &args);

// The variant's intermediate bytes for these buffers, from its ledger (-1 if unknown).
int64_t intermediate_bytes(const Variant &v, const Bindings &args);

// The documented limit under which the variant refuses a call in words (Refusal, error.h):
// "autoscheduled" (an autoscheduler's tiles, which fit only some sizes), "one_shape" (a buffer
// taken as kernel parameters), "row_length" (a row held on chip: Variant::row_limit), or
// "" (it runs every size its pipeline defines).
std::string variant_limit(const Variant &v);

// "float32", "uint8", ...
std::string type_name(const halide_type_t &t);

}  // namespace fuselab
