// Every compiled variant: (pipeline, schedule, target), what it fuses, its ledger, and Halide's
// generic entry points. The build generates the lists (fuselab_registry() in CMake); a registry
// library registers its variants when it is linked, before main().
#pragma once

#include <cstdint>
#include <deque>
#include <string>

#include "HalideRuntime.h"
#include "fuselab/ledger.h"

namespace fuselab {

// One GPU kernel of a variant, as ptxas reports it for sm_90 under the runtime's register cap.
struct KernelResources {
    const char *name;
    int registers;
    int spill_store_bytes, spill_load_bytes;  // local memory traffic from spills
    int shared_bytes;                         // per block: static plus Halide's dynamic
    int threads;                              // per block (-1: not known)
};

struct Variant {
    const char *pipeline;       // "add_relu"
    const char *schedule;       // "fused": the file schedules/<generator>/fused.cpp
    const char *target;         // "cpu" or "cuda"
    const char *dtype;          // storage type: "float32", "bfloat16" (uint16 bits) or "float16"
    const char *kind;           // "fuselab", or "seed_cuda" for hand-written CUDA
    const char *summary;        // one line: what it fuses
    const char *autoscheduler;  // the plugin that scheduled it ("Adams2019"), or ""
    int kernels;                // kernel launches per call from the lowered statement (-1: unknown)
    int intermediates;          // buffers that round-trip through global/heap memory (-1: unknown)
    int64_t (*intermediate_bytes_fn)(const detail::ArgLookup &);  // null: unknown
    const KernelResources *resources;  // its CUDA kernels (null: none or unknown)
    int num_resources;
    int (*argv)(void **args);
    const halide_filter_metadata_t *(*metadata)();
    // The longest row it takes, in elements of the first input's dimension 0 (a strategy that
    // holds a row on chip: its file's `row_limit` tag, in bytes or elements), or 0: any.
    int64_t row_limit = 0;

    // "add_relu/fused/cuda"; a storage type other than float32 is a fourth part:
    // "softmax/block_row/cuda/bfloat16".
    std::string name() const;
    bool is_cuda() const;
};

// All registered variants, in registration order (each registry in its build order). References
// stay valid: registering never moves a variant.
const std::deque<Variant> &variants();

// The variant with these names; throws Error listing what exists when there is none.
const Variant &find_variant(const std::string &pipeline, const std::string &schedule,
                            const std::string &target, const std::string &dtype = "float32");

// The storage types, by name: float32, bfloat16 (its bits as uint16, the bytes of
// torch.bfloat16) and float16. dtype_of() answers "" for any other Halide type; a buffer typed
// halide's own bfloat16 counts as bfloat16 too.
const char *dtype_of(const halide_type_t &t);
halide_type_t dtype_type(const std::string &dtype);  // throws Error on an unknown name

// For generated registries: adds `n` variants. A variant whose name is already registered is an
// error (two registries claiming one name), reported by throwing Error.
void register_variants(const Variant *list, size_t n);

}  // namespace fuselab
