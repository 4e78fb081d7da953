#include "fuselab/invoke.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <vector>

#include "HalideRuntimeCuda.h"
#include "fuselab/buffer_checks.h"
#include "fuselab/call_plan.h"
#include "fuselab/device.h"
#include "fuselab/error.h"

namespace fuselab {

std::string type_name(const halide_type_t &t) {
    const char *code = t.code == halide_type_float    ? "float"
                       : t.code == halide_type_uint   ? "uint"
                       : t.code == halide_type_int    ? "int"
                       : t.code == halide_type_bfloat ? "bfloat"
                                                      : "handle";
    std::string s = code + std::to_string(t.bits);
    return t.lanes == 1 ? s : s + "x" + std::to_string(t.lanes);
}

namespace {

// An argument's type in words: a bfloat16 variant's uint16 buffers are its bfloat16 bits.
std::string expected_type(const Variant &v, const halide_type_t &t) {
    if (std::string(v.dtype) == "bfloat16" && t == halide_type_t(halide_type_uint, 16))
        return "uint16 (the bits of bfloat16, as torch.bfloat16 stores them)";
    return type_name(t);
}

bool is_output(const halide_filter_argument_t &a) {
    return a.kind == halide_argument_kind_output_buffer;
}

const char *role(const halide_filter_argument_t &a) {
    return is_output(a) ? "output" : "input";
}

std::string expected_names(const halide_filter_metadata_t *md) {
    std::string s;
    for (int i = 0; i < md->num_arguments; i++)
        s += (i ? ", " : "") + std::string(md->arguments[i].name);
    return s;
}

// "out 268435456" / "out 1920x1080x16": the output extents the variant was built and tuned for.
std::string estimates(const halide_filter_metadata_t *md) {
    std::string s;
    for (int i = 0; i < md->num_arguments; i++) {
        const halide_filter_argument_t &a = md->arguments[i];
        if (!is_output(a) || !a.buffer_estimates) continue;
        std::string e;
        for (int d = 0; d < a.dimensions; d++) {
            const int64_t *extent = a.buffer_estimates[2 * d + 1];
            e += (d ? "x" : "") + (extent ? std::to_string(*extent) : std::string("?"));
        }
        s += (s.empty() ? "" : ", ") + std::string(a.name) + " " + e;
    }
    return s.empty() ? "its estimates" : s;
}

// An autoscheduled variant's refusal of a size its tiles do not fit, in words, with what to use.
std::string autoscheduled_refusal(const Variant &v) {
    std::string others;
    for (const Variant &o : variants()) {
        if (std::string(o.pipeline) == v.pipeline && std::string(o.target) == v.target &&
            std::string(o.dtype) == v.dtype && !*o.autoscheduler)
            others += (others.empty() ? "" : ", ") + std::string(o.schedule);
    }
    return v.name() + ": refuses this size: the " + v.autoscheduler +
           " autoscheduler tuned it for " + estimates(v.metadata()) +
           " and split its loops without tail guards, so it only runs sizes whose tiles fit "
           "(nothing was computed). Use a hand-written schedule of " +
           v.pipeline + " on " + v.target +
           (std::string(v.dtype) == "float32" ? "" : std::string(" in ") + v.dtype) +
           ", which runs any size: " + (others.empty() ? "none is built" : others);
}

// A buffer passed as kernel parameters (a generator's Input<float[]> named "<buffer>_param",
// whose scalars <buffer>_param_0 .. _{n-1} live in the CUDA constant bank): the argument's
// buffer name, or "" for a scalar of another kind.
std::string param_buffer(const halide_filter_argument_t &a) {
    if (a.kind != halide_argument_kind_input_scalar) return "";
    const std::string name = a.name;
    const size_t at = name.rfind("_param_");
    if (at == std::string::npos || at == 0) return "";
    for (size_t i = at + 7; i < name.size(); i++) {
        if (name[i] < '0' || name[i] > '9') return "";
    }
    return at + 7 < name.size() ? name.substr(0, at) : "";
}

}  // namespace

std::string variant_limit(const Variant &v) {
    if (*v.autoscheduler) return "autoscheduled";
    if (v.row_limit > 0) return "row_length";
    const halide_filter_metadata_t *md = v.metadata();
    for (int i = 0; i < md->num_arguments; i++) {
        if (!param_buffer(md->arguments[i]).empty()) return "one_shape";
    }
    return "";
}

namespace {

int64_t elements(const halide_buffer_t *b) {
    int64_t n = 1;
    for (int d = 0; d < b->dimensions; d++) n *= b->dim[d].extent;
    return n;
}

// The buffer's elements in Halide's dense order (dimension 0 fastest), from the host copy where
// it is current, else copied back from the device on `stream` (a small synchronous copy).
std::vector<float> dense_values(const halide_buffer_t *b, const std::string &who,
                                CudaStream stream) {
    std::vector<float> values(elements(b));
    std::vector<halide_dimension_t> dims(b->dim, b->dim + b->dimensions);
    int32_t stride = 1;
    for (halide_dimension_t &d : dims) {
        d.stride = stride;
        stride *= d.extent;
    }
    halide_buffer_t dense{};
    dense.type = b->type;
    dense.dimensions = b->dimensions;
    dense.dim = dims.data();
    dense.host = reinterpret_cast<uint8_t *>(values.data());
    const bool on_device = b->device && (!b->host || (b->flags & halide_buffer_flag_device_dirty));
    halide_buffer_t src = *b;
    if (!on_device) src.device = 0, src.device_interface = nullptr;  // the host copy is current
    detail::install_halide_error_handler();
    detail::ScopedStream on(stream);
    if (int code = halide_buffer_copy(nullptr, &src, nullptr, &dense)) {
        std::string msg = detail::take_halide_error();
        throw Error(who + ": reading its kernel parameters: " +
                    (msg.empty() ? detail::halide_error_code_name(code) : msg));
    }
    return values;
}

}  // namespace

Problem check(const Variant &v, const Bindings &args) {
    // The words are built only where something is wrong: choose() checks every candidate of a
    // new shape, and a passing check is most of them.
    auto who = [&v] { return v.name(); };
    const halide_filter_metadata_t *md = v.metadata();
    for (const auto &kv : args) {
        bool known = false;
        for (int i = 0; i < md->num_arguments; i++) {
            known |=
                kv.first == md->arguments[i].name || kv.first == param_buffer(md->arguments[i]);
        }
        if (!known) {
            return Problem{who() + ": unknown argument '" + kv.first + "'; it takes " +
                           expected_names(md)};
        }
    }
    for (int i = 0; i < md->num_arguments; i++) {
        const halide_filter_argument_t &a = md->arguments[i];
        auto what = [&a] { return std::string(role(a)) + " '" + a.name + "'"; };
        if (a.kind == halide_argument_kind_input_scalar) {
            const std::string buffer = param_buffer(a);
            if (buffer.empty()) {
                return Problem{who() + ": scalar argument '" + a.name +
                               "' is not supported by fuselab's runtime"};
            }
            auto it = args.find(buffer);
            if (it == args.end() || !it->second) {
                return Problem{who() + ": missing input '" + buffer + "'; it takes " +
                               expected_names(md)};
            }
            if (!(it->second->type == a.type)) {
                return Problem{who() + ": input '" + buffer + "' has type " +
                               type_name(it->second->type) + ", expected " +
                               expected_type(v, a.type)};
            }
            continue;  // its element count: below, once per buffer
        }
        auto it = args.find(a.name);
        if (it == args.end() || it->second == nullptr) {
            return Problem{who() + ": missing " + what() + "; it takes " + expected_names(md)};
        }
        const halide_buffer_t *b = it->second;
        if (!(b->type == a.type)) {
            return Problem{who() + ": " + what() + " has type " + type_name(b->type) +
                           ", expected " + expected_type(v, a.type)};
        }
        if (b->dimensions != a.dimensions) {
            return Problem{who() + ": " + what() + " has rank " + std::to_string(b->dimensions) +
                           ", expected " + std::to_string(a.dimensions)};
        }
        for (int d = 0; d < b->dimensions; d++) {
            if (b->dim[d].extent <= 0) {
                return Problem{who() + ": " + what() + " has extent " +
                               std::to_string(b->dim[d].extent) + " in dimension " +
                               std::to_string(d) + "; extents must be positive"};
            }
            // Halide's CUDA runtime aborts on a negative stride when it allocates device memory.
            if (v.is_cuda() && b->dim[d].stride < 0) {
                return Problem{who() + ": " + what() + " has stride " +
                               std::to_string(b->dim[d].stride) + " in dimension " +
                               std::to_string(d) + "; a CUDA variant needs non-negative strides"};
            }
        }
        const bool on_device = b->device != 0;
        if (!b->host && !on_device)
            return Problem{who() + ": " + what() + " has no memory (host or device)"};
        if (!v.is_cuda() && !b->host) {
            return Problem{
                who() + ": " + what() +
                " is on the device only; a CPU variant needs host memory (copy it back first)"};
        }
        // Halide's CUDA kernels load and store up to 16-byte vectors, assuming device buffers
        // start 16-byte aligned (as every allocation does); a view at another offset would fault
        // (misaligned address) and take the CUDA context down with it.
        if (v.is_cuda() && on_device && b->device % 16 != 0) {
            return Problem{who() + ": " + what() +
                           " starts at a device address that is not 16-byte "
                           "aligned (a view at an offset of " +
                           std::to_string(b->device % 16) +
                           " bytes); a CUDA variant needs 16-byte aligned device memory: pass an "
                           "aligned tensor (for example a copy)"};
        }
        if (on_device && b->device_interface != halide_cuda_device_interface()) {
            return Problem{who() + ": " + what() +
                           " has a device handle but no CUDA device interface (fuselab's device "
                           "memory is CUDA's: halide_cuda_device_interface())"};
        }
        if (is_output(a) && detail::self_overlapping(b)) {
            return Problem{who() + ": " + what() +
                           " has strides under which two elements share memory (a broadcast or "
                           "overlapping view); outputs need one element per address"};
        }
    }
    // A buffer passed as kernel parameters has exactly as many elements as the variant takes.
    for (const auto &[name, b] : args) {
        int64_t params = 0;
        for (int i = 0; i < md->num_arguments; i++)
            params += param_buffer(md->arguments[i]) == name;
        if (params > 0 && b && elements(b) != params) {
            return Problem{who() + ": input '" + name + "' has " + std::to_string(elements(b)) +
                               " elements; this variant takes it as " + std::to_string(params) +
                               " kernel parameters, so it runs one shape only (" + v.summary + ")",
                           true};
        }
    }
    // A row held on chip: the first input's rows (dimension 0) no longer than the variant's limit.
    if (v.row_limit > 0) {
        for (int i = 0; i < md->num_arguments; i++) {
            const halide_filter_argument_t &a = md->arguments[i];
            if (a.kind != halide_argument_kind_input_buffer) continue;
            const int64_t n = args.at(a.name)->dim[0].extent;
            if (n > v.row_limit) {
                return Problem{
                    who() + ": input '" + a.name + "' has rows of " + std::to_string(n) +
                        " elements; this variant holds a row on chip, so it runs rows of at "
                        "most " +
                        std::to_string(v.row_limit) + " elements only",
                    true};
            }
            break;
        }
    }
    // An output that shares memory with another argument would be read after being written.
    for (int i = 0; i < md->num_arguments; i++) {
        if (!is_output(md->arguments[i])) continue;
        const halide_buffer_t *out = args.at(md->arguments[i].name);
        for (int j = 0; j < md->num_arguments; j++) {
            if (j == i || md->arguments[j].kind == halide_argument_kind_input_scalar) continue;
            const halide_buffer_t *other = args.at(md->arguments[j].name);
            const bool host =
                out->host && other->host &&
                detail::spans_overlap(uint64_t(out->host), out, uint64_t(other->host), other);
            const bool device = out->device && other->device &&
                                detail::spans_overlap(out->device, out, other->device, other);
            if (host || device) {
                return Problem{who() + ": output '" + md->arguments[i].name +
                               "' shares memory with " + role(md->arguments[j]) + " '" +
                               md->arguments[j].name + "'; outputs must not alias other arguments"};
            }
        }
    }
    if (v.is_cuda()) {
        const CudaStatus &s = cuda_status();
        if (!s.usable) return Problem{who() + ": no usable CUDA device: " + s.reason};
    }
    return {};
}

void validate(const Variant &v, const Bindings &args) {
    const Problem p = check(v, args);
    if (p.refusal) throw Refusal(p.what);
    if (p) throw Error(p.what);
}

void invoke(const Variant &v, const Bindings &args, CudaStream stream) {
    // The lean call where every argument is bound by name and nothing else is (call_plan.h);
    // otherwise validate() words what is wrong, and the general path below runs the rest.
    const CallPlan &plan = call_plan(v);
    constexpr int kArgs = 16;
    if (plan.lean() && plan.num_args() <= kArgs && args.size() == size_t(plan.num_args())) {
        halide_buffer_t *ordered[kArgs];
        bool all = true;
        for (int i = 0; i < plan.num_args() && all; i++) {
            auto it = args.find(v.metadata()->arguments[i].name);
            all = it != args.end();
            if (all) ordered[i] = it->second;
        }
        if (all) return plan.invoke(ordered, stream);
    }
    validate(v, args);
    const halide_filter_metadata_t *md = v.metadata();
    std::vector<void *> argv(md->num_arguments);
    std::map<std::string, std::vector<float>> params;  // buffers passed as kernel parameters
    for (int i = 0; i < md->num_arguments; i++) {
        const std::string buffer = param_buffer(md->arguments[i]);
        if (!buffer.empty()) {
            auto it = params.find(buffer);
            if (it == params.end())
                it = params.emplace(buffer, dense_values(args.at(buffer), v.name(), stream)).first;
            const std::string name = md->arguments[i].name;
            argv[i] = &it->second.at(std::stoul(name.substr(name.rfind('_') + 1)));
            continue;
        }
        halide_buffer_t *b = args.at(md->arguments[i].name);
        // An input whose only copy is on the host must reach the device, whatever its flags say
        // (a caller that filled it through data() never marked it).
        if (v.is_cuda() && !is_output(md->arguments[i]) && b->host && !b->device)
            b->flags |= halide_buffer_flag_host_dirty;
        argv[i] = b;
    }

    detail::install_halide_error_handler();
    detail::take_halide_error();
    int code;
    {
        detail::ScopedStream on(v.is_cuda() ? stream : nullptr);
        code = v.argv(argv.data());
    }
    if (code != 0) detail::raise_call_error(v, code, detail::take_halide_error());
}

void detail::raise_call_error(const Variant &v, int code, std::string msg) {
    const halide_filter_metadata_t *md = v.metadata();
    if (code == halide_error_code_access_out_of_bounds && *v.autoscheduler)
        throw Refusal(autoscheduled_refusal(v));
    // An autoscheduler's grid past the device's limits (rmsnorm_residual/auto at 262144 rows:
    // cuLaunchKernel's CUDA_ERROR_INVALID_VALUE, 2026-12-02): a parameter error that leaves the
    // context usable, and nothing was computed.
    if (code == halide_error_code_gpu_device_error && *v.autoscheduler &&
        msg.find("CUDA_ERROR_INVALID_VALUE cuLaunchKernel") != std::string::npos)
        throw Refusal(autoscheduled_refusal(v) + " (" + msg + ")");
    // A specialize_fail (a staged row past shared memory): validate() refuses those rows first,
    // from the variant's declared row_limit; this is the kernel's own word for it.
    if (code == halide_error_code_specialize_fail)
        throw Refusal(v.name() + ": refuses these arguments: " + msg);
    if (code == halide_error_code_constraint_violated) {
        // "Constraint violated: a.stride.0 (2) == 1 (1)": a layout the kernel cannot take.
        for (int i = 0; i < md->num_arguments; i++) {
            const std::string arg = md->arguments[i].name;
            if (msg.find("violated: " + arg + ".stride.") == std::string::npos) continue;
            throw Error(v.name() + ": " + role(md->arguments[i]) + " '" + arg +
                        "' has a layout this variant cannot take (" + msg +
                        "; Halide dimension 0 is numpy's last); pass a dense copy "
                        "(numpy.ascontiguousarray, tensor.contiguous())");
        }
    }
    if (msg.empty()) msg = detail::halide_error_code_name(code);
    throw Error(v.name() + ": " + msg + " (" + detail::halide_error_code_name(code) + ")");
}

namespace {
struct BindingLookup : detail::ArgLookup {
    const Bindings &args;
    explicit BindingLookup(const Bindings &a) : args(a) {}
    const halide_dimension_t &dim(const char *arg, int d) const {
        const halide_buffer_t *b = args.at(arg);
        if (d >= b->dimensions)
            throw Error(std::string("ledger: no dimension ") + std::to_string(d) + " in " + arg);
        return b->dim[d];
    }
    int64_t min(const char *arg, int d) const override { return dim(arg, d).min; }
    int64_t extent(const char *arg, int d) const override { return dim(arg, d).extent; }
    int64_t stride(const char *arg, int d) const override { return dim(arg, d).stride; }
};
}  // namespace

int64_t intermediate_bytes(const Variant &v, const Bindings &args) {
    if (!v.intermediate_bytes_fn) return -1;
    return v.intermediate_bytes_fn(BindingLookup(args));
}

}  // namespace fuselab
