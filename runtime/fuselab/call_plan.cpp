#include "fuselab/call_plan.h"

#include <cstring>
#include <memory>
#include <mutex>
#include <unordered_map>

#include "HalideRuntimeCuda.h"
#include "fuselab/buffer_checks.h"
#include "fuselab/device.h"
#include "fuselab/error.h"

namespace fuselab {

CallPlan::CallPlan(const Variant &v) : v_(&v), cuda_(v.is_cuda()) {
    const halide_filter_metadata_t *md = v.metadata();
    for (int i = 0; i < md->num_arguments; i++) {
        const halide_filter_argument_t &a = md->arguments[i];
        if (a.kind == halide_argument_kind_input_scalar) lean_ = false;  // kernel parameters
        const bool output = a.kind == halide_argument_kind_output_buffer;
        slots_.push_back({a.name, a.type, a.dimensions, output});
        if (row_input_ < 0 && a.kind == halide_argument_kind_input_buffer) row_input_ = i;
    }
}

int CallPlan::index(const char *name) const {
    for (size_t i = 0; i < slots_.size(); i++) {
        if (std::strcmp(slots_[i].name, name) == 0) return static_cast<int>(i);
    }
    return -1;
}

// validate()'s checks, in integers; false where any fails.
bool CallPlan::passes(halide_buffer_t *const *args, bool fresh_outputs) const {
    const halide_device_interface_t *cuda_interface = halide_cuda_device_interface();
    const int n = num_args();
    for (int i = 0; i < n; i++) {
        const Slot &s = slots_[i];
        const halide_buffer_t *b = args[i];
        if (!b || !(b->type == s.type) || b->dimensions != s.dimensions) return false;
        for (int d = 0; d < b->dimensions; d++) {
            if (b->dim[d].extent <= 0 || (cuda_ && b->dim[d].stride < 0)) return false;
        }
        const bool on_device = b->device != 0;
        if (!b->host && !on_device) return false;
        if (!cuda_ && !b->host) return false;
        if (cuda_ && on_device && b->device % 16 != 0) return false;
        if (on_device && b->device_interface != cuda_interface) return false;
        if (s.output && detail::self_overlapping(b)) return false;
    }
    if (v_->row_limit > 0 && row_input_ >= 0 && args[row_input_]->dim[0].extent > v_->row_limit)
        return false;
    if (!fresh_outputs) {
        for (int i = 0; i < n; i++) {
            if (!slots_[i].output) continue;
            const halide_buffer_t *out = args[i];
            for (int j = 0; j < n; j++) {
                if (j == i) continue;
                const halide_buffer_t *other = args[j];
                if (out->host && other->host &&
                    detail::spans_overlap(uint64_t(out->host), out, uint64_t(other->host), other))
                    return false;
                if (out->device && other->device &&
                    detail::spans_overlap(out->device, out, other->device, other))
                    return false;
            }
        }
    }
    return !cuda_ || cuda_status().usable;
}

// A failed check, in validate()'s words.
void CallPlan::refuse(halide_buffer_t *const *args) const {
    Bindings bindings;
    for (int i = 0; i < num_args(); i++) bindings.emplace(slots_[i].name, args[i]);
    validate(*v_, bindings);
    throw Error(v_->name() + ": refused by the lean call's checks, which validate() passes");
}

void CallPlan::invoke(halide_buffer_t *const *args, CudaStream stream, bool fresh_outputs) const {
    if (!lean_) {
        Bindings bindings;
        for (int i = 0; i < num_args(); i++) bindings.emplace(slots_[i].name, args[i]);
        fuselab::invoke(*v_, bindings, stream);
        return;
    }
    if (!passes(args, fresh_outputs)) refuse(args);
    // An input whose only copy is on the host must reach the device, whatever its flags say.
    if (cuda_) {
        for (int i = 0; i < num_args(); i++) {
            halide_buffer_t *b = args[i];
            if (!slots_[i].output && b->host && !b->device)
                b->flags |= halide_buffer_flag_host_dirty;
        }
    }
    detail::install_halide_error_handler();
    detail::clear_halide_error();
    int code;
    {
        detail::ScopedStream on(cuda_ ? stream : nullptr);
        code = v_->argv(reinterpret_cast<void **>(const_cast<halide_buffer_t **>(args)));
    }
    if (code != 0) detail::raise_call_error(*v_, code, detail::take_halide_error());
}

const CallPlan &call_plan(const Variant &v) {
    static std::mutex m;
    static std::unordered_map<const Variant *, std::unique_ptr<CallPlan>> plans;
    std::lock_guard<std::mutex> lock(m);
    std::unique_ptr<CallPlan> &p = plans[&v];
    if (!p) p = std::make_unique<CallPlan>(v);
    return *p;
}

}  // namespace fuselab
