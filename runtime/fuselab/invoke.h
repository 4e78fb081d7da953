// Calling any variant generically, through Halide's NAME_argv and NAME_metadata.
#pragma once

#include <map>
#include <string>

#include "HalideRuntime.h"
#include "fuselab/registry.h"

namespace fuselab {

// The caller's buffers, by argument name (a, b, out; x, y, out1, out2; input, weights, bias; in).
using Bindings = std::map<std::string, halide_buffer_t *>;

// Checks the bindings against the variant's metadata (every argument bound and no other, type,
// rank, memory present, a usable device for CUDA variants), then runs it. Extents are checked by
// the pipeline's own constraints. Any failure throws Error naming the variant and the problem;
// on failure no output is left half-trusted: the caller's outputs are simply not valid.
void invoke(const Variant &v, const Bindings &args);

// Only the checks of invoke().
void validate(const Variant &v, const Bindings &args);

// The variant's intermediate bytes for these buffers, from its ledger (-1 if unknown).
int64_t intermediate_bytes(const Variant &v, const Bindings &args);

// "float32", "uint8", ...
std::string type_name(const halide_type_t &t);

}  // namespace fuselab
