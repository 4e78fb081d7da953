// The lean call of a variant: what invoke() checks, computed once per variant as integers (each
// argument's kind, type and rank, the row limit, whether it runs on CUDA), so that a call with the
// buffers already in the variant's argument order does no std::string, map or vector work, and
// builds an error's words only when a check fails (validate() words it, naming the variant and the
// argument at fault). Every check of validate() is made, on every call; the one a caller may skip
// is whether an output overlaps another argument, and only where it has just allocated the
// outputs (`fresh_outputs`).
#pragma once

#include <vector>

#include "HalideRuntime.h"
#include "fuselab/invoke.h"
#include "fuselab/registry.h"

namespace fuselab {

class CallPlan {
public:
    explicit CallPlan(const Variant &v);

    const Variant &variant() const { return *v_; }
    // The variant's arguments, in its metadata's order (Halide's NAME_argv order).
    int num_args() const { return static_cast<int>(slots_.size()); }
    // The position of the argument named `name`, or -1.
    int index(const char *name) const;
    bool is_output(int i) const { return slots_[i].output; }
    // False for a variant that takes a buffer as kernel parameters: call it through invoke().
    bool lean() const { return lean_; }

    // Runs the variant on args[0 .. num_args() - 1], in the metadata's order, on `stream`, as
    // invoke() does; throws what invoke() throws. `fresh_outputs`: the caller allocated the
    // outputs just now, so they overlap nothing.
    void invoke(halide_buffer_t *const *args, CudaStream stream, bool fresh_outputs = false) const;

private:
    struct Slot {
        const char *name;
        halide_type_t type;
        int dimensions;
        bool output;
    };
    bool passes(halide_buffer_t *const *args, bool fresh_outputs) const;
    [[noreturn]] void refuse(halide_buffer_t *const *args) const;

    const Variant *v_;
    std::vector<Slot> slots_;
    bool cuda_ = false, lean_ = true;
    int row_input_ = -1;  // the input whose dimension 0 row_limit bounds
};

// The plan of a registered variant, made on first use and kept (thread-safe).
const CallPlan &call_plan(const Variant &v);

namespace detail {
// invoke()'s words for a failed call of v (Halide's error code and message), thrown.
[[noreturn]] void raise_call_error(const Variant &v, int code, std::string msg);
}  // namespace detail

}  // namespace fuselab
