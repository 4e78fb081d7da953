#include "fuselab/invoke.h"

#include <vector>

#include "fuselab/device.h"
#include "fuselab/error.h"

namespace fuselab {

std::string type_name(const halide_type_t &t) {
    const char *code = t.code == halide_type_float  ? "float"
                       : t.code == halide_type_uint ? "uint"
                       : t.code == halide_type_int  ? "int"
                                                    : "handle";
    std::string s = code + std::to_string(t.bits);
    return t.lanes == 1 ? s : s + "x" + std::to_string(t.lanes);
}

namespace {

const char *role(const halide_filter_argument_t &a) {
    return a.kind == halide_argument_kind_output_buffer ? "output" : "input";
}

std::string expected_names(const halide_filter_metadata_t *md) {
    std::string s;
    for (int i = 0; i < md->num_arguments; i++)
        s += (i ? ", " : "") + std::string(md->arguments[i].name);
    return s;
}

}  // namespace

void validate(const Variant &v, const Bindings &args) {
    const std::string who = v.name();
    const halide_filter_metadata_t *md = v.metadata();
    for (const auto &kv : args) {
        bool known = false;
        for (int i = 0; i < md->num_arguments; i++) known |= kv.first == md->arguments[i].name;
        if (!known) {
            throw Error(who + ": unknown argument '" + kv.first + "'; it takes " +
                        expected_names(md));
        }
    }
    for (int i = 0; i < md->num_arguments; i++) {
        const halide_filter_argument_t &a = md->arguments[i];
        const std::string what = std::string(role(a)) + " '" + a.name + "'";
        if (a.kind == halide_argument_kind_input_scalar) {
            throw Error(who + ": scalar argument '" + a.name +
                        "' is not supported by fuselab's runtime");
        }
        auto it = args.find(a.name);
        if (it == args.end() || it->second == nullptr) {
            throw Error(who + ": missing " + what + "; it takes " + expected_names(md));
        }
        const halide_buffer_t *b = it->second;
        if (!(b->type == a.type)) {
            throw Error(who + ": " + what + " has type " + type_name(b->type) + ", expected " +
                        type_name(a.type));
        }
        if (b->dimensions != a.dimensions) {
            throw Error(who + ": " + what + " has rank " + std::to_string(b->dimensions) +
                        ", expected " + std::to_string(a.dimensions));
        }
        for (int d = 0; d < b->dimensions; d++) {
            if (b->dim[d].extent <= 0) {
                throw Error(who + ": " + what + " has extent " + std::to_string(b->dim[d].extent) +
                            " in dimension " + std::to_string(d) + "; extents must be positive");
            }
        }
        const bool on_device = b->device != 0;
        if (!b->host && !on_device)
            throw Error(who + ": " + what + " has no memory (host or device)");
        if (!v.is_cuda() && !b->host) {
            throw Error(
                who + ": " + what +
                " is on the device only; a CPU variant needs host memory (copy it back first)");
        }
    }
    if (v.is_cuda()) {
        const CudaStatus &s = cuda_status();
        if (!s.usable) throw Error(who + ": no usable CUDA device: " + s.reason);
    }
}

void invoke(const Variant &v, const Bindings &args) {
    validate(v, args);
    const halide_filter_metadata_t *md = v.metadata();
    std::vector<void *> argv(md->num_arguments);
    for (int i = 0; i < md->num_arguments; i++) argv[i] = args.at(md->arguments[i].name);

    detail::install_halide_error_handler();
    detail::take_halide_error();
    const int code = v.argv(argv.data());
    std::string msg = detail::take_halide_error();
    if (code != 0) {
        if (msg.empty()) msg = detail::halide_error_code_name(code);
        throw Error(v.name() + ": " + msg + " (" + detail::halide_error_code_name(code) + ")");
    }
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
