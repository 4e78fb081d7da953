// Every compiled variant, as the build generated it: (pipeline, schedule, target), what it fuses,
// its ledger, and Halide's generic entry points.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "HalideRuntime.h"
#include "fuselab/ledger.h"

namespace fuselab {

struct Variant {
    const char *pipeline;  // "add_relu"
    const char *schedule;  // "fused": the file schedules/<generator>/fused.cpp
    const char *target;    // "cpu" or "cuda"
    const char *kind;      // "fuselab", or "seed_cuda" for the seed's hand-written kernels
    const char *summary;   // one line: what it fuses
    int kernels;           // kernel launches per call from the lowered statement (-1: unknown)
    int intermediates;     // buffers that round-trip through global/heap memory (-1: unknown)
    int64_t (*intermediate_bytes_fn)(const detail::ArgLookup &);  // null: unknown
    int (*argv)(void **args);
    const halide_filter_metadata_t *(*metadata)();

    std::string name() const;  // "add_relu/fused/cuda"
    bool is_cuda() const;
};

// All variants, in build order.
const std::vector<Variant> &variants();

// The variant with these names; throws Error listing what exists when there is none.
const Variant &find_variant(const std::string &pipeline, const std::string &schedule,
                            const std::string &target);

namespace detail {
const std::vector<Variant> &generated_variants();  // variants.gen.cpp
}

}  // namespace fuselab
