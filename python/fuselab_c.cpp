// libfuselab.so: the C ABI of fuselab_c.h over the C++ runtime, for the Python package.
// Buffers are described, never copied here: host pointers become halide_buffer_t hosts, device
// pointers become CUDA device handles with no host, exactly as PyTorch's own Halide backend
// hands tensors to Halide.
#include "fuselab/fuselab_c.h"

#include <cstdio>
#include <cstring>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "HalideRuntimeCuda.h"
#include "fuselab/call_plan.h"
#include "fuselab/choose.h"
#include "fuselab/describe.h"
#include "fuselab/device.h"
#include "fuselab/error.h"
#include "fuselab/invoke.h"
#include "fuselab/registry.h"
#include "fuselab/workloads.h"

namespace {

using fuselab::Error;

int fail(char *err, size_t len, const std::string &msg) {
    if (err && len) std::snprintf(err, len, "%s", msg.c_str());
    return 1;
}

// A halide_buffer_t over the caller's memory, dimensions reversed (numpy's outermost-first to
// Halide's dimension 0 fastest).
struct Described {
    halide_buffer_t buf{};
    std::vector<halide_dimension_t> dims;
};

int32_t checked_int32(int64_t v, const std::string &what) {
    if (v < std::numeric_limits<int32_t>::min() || v > std::numeric_limits<int32_t>::max())
        throw Error(what + " " + std::to_string(v) + " does not fit Halide's 32-bit dimensions");
    return static_cast<int32_t>(v);
}

void describe(const fuselab_arg &a, const std::string &who, Described &d) {
    const std::string what = who + ": argument '" + std::string(a.name ? a.name : "?") + "'";
    if (a.ndim < 0 || a.ndim > 16) throw Error(what + " has rank " + std::to_string(a.ndim));
    if (a.bits <= 0 || a.bits > 64 || a.type_code < 0 || a.type_code > 4)
        throw Error(what + " has an unknown element type");
    d.dims.resize(a.ndim);
    for (int i = 0; i < a.ndim; i++) {
        const int j = a.ndim - 1 - i;
        d.dims[i] = halide_dimension_t(0, checked_int32(a.shape[j], what + " extent"),
                                       checked_int32(a.strides[j], what + " stride"));
    }
    // bfloat16 as Halide's bfloat code (DLPack's kDLBfloat): the same bytes as the uint16 bits
    // every bfloat16 variant takes (registry.h), so it is described as those.
    const int code =
        a.type_code == halide_type_bfloat && a.bits == 16 ? halide_type_uint : a.type_code;
    d.buf.type = halide_type_t(static_cast<halide_type_code_t>(code), a.bits);
    d.buf.dimensions = a.ndim;
    d.buf.dim = d.dims.data();
    if (a.device == 1) {
        d.buf.device = reinterpret_cast<uint64_t>(a.data);
        d.buf.device_interface = halide_cuda_device_interface();
    } else if (a.device == 0) {
        d.buf.host = static_cast<uint8_t *>(a.data);
    } else {
        throw Error(what + " is on device type " + std::to_string(a.device) +
                    "; fuselab takes host memory or CUDA device memory");
    }
}

// describe() with no words: false where the argument is not one it would describe as is (then
// the worded path says why). dims holds at least a.ndim entries.
bool describe_lean(const fuselab_arg &a, halide_buffer_t &buf, halide_dimension_t *dims,
                   int max_rank) {
    if (!a.name || a.ndim < 0 || a.ndim > max_rank || a.bits <= 0 || a.bits > 64 ||
        a.type_code < 0 || a.type_code > 4 || (a.device != 0 && a.device != 1))
        return false;
    for (int i = 0; i < a.ndim; i++) {
        const int j = a.ndim - 1 - i;
        const int64_t e = a.shape[j], st = a.strides[j];
        if (e < std::numeric_limits<int32_t>::min() || e > std::numeric_limits<int32_t>::max() ||
            st < std::numeric_limits<int32_t>::min() || st > std::numeric_limits<int32_t>::max())
            return false;
        dims[i] = halide_dimension_t(0, static_cast<int32_t>(e), static_cast<int32_t>(st));
    }
    const int code =
        a.type_code == halide_type_bfloat && a.bits == 16 ? halide_type_uint : a.type_code;
    buf = halide_buffer_t{};
    buf.type = halide_type_t(static_cast<halide_type_code_t>(code), a.bits);
    buf.dimensions = a.ndim;
    buf.dim = dims;
    if (a.device == 1) {
        buf.device = reinterpret_cast<uint64_t>(a.data);
        buf.device_interface = halide_cuda_device_interface();
    } else {
        buf.host = static_cast<uint8_t *>(a.data);
    }
    return true;
}

// fuselab_invoke's lean path (call_plan.h): the arguments described on the stack in the variant's
// order, no string built unless something fails. False where it does not apply (a variant with
// kernel parameters, more arguments than it holds, a name it does not know or given twice, an
// argument describe() would word): the worded path then runs, and says what is wrong.
bool invoke_lean(const fuselab::Variant &v, int nargs, const fuselab_arg *args, void *stream) {
    constexpr int kArgs = 16, kRank = 8;
    const fuselab::CallPlan &plan = fuselab::call_plan(v);
    if (!plan.lean() || nargs != plan.num_args() || nargs > kArgs) return false;
    halide_buffer_t bufs[kArgs];
    halide_dimension_t dims[kArgs][kRank];
    halide_buffer_t *ordered[kArgs] = {};
    for (int i = 0; i < nargs; i++) {
        const int k = args[i].name ? plan.index(args[i].name) : -1;
        if (k < 0 || ordered[k] || !describe_lean(args[i], bufs[k], dims[k], kRank)) return false;
        ordered[k] = &bufs[k];
    }
    // Device memory Halide allocates for host memory given to a CUDA variant is freed again,
    // into Halide's cache, whatever happens.
    struct Release {
        halide_buffer_t *const *b;
        int n;
        ~Release() {
            for (int i = 0; i < n; i++) {
                if (b[i]->host && b[i]->device) halide_device_free(nullptr, b[i]);
            }
        }
    } release{ordered, nargs};
    plan.invoke(ordered, stream);
    for (int i = 0; i < nargs; i++) {
        if (plan.is_output(i) && ordered[i]->host && ordered[i]->device)
            fuselab::to_host(ordered[i], v.name(), stream);
    }
    return true;
}

// A variant's record from the registry alone (pipeline, schedule, target, kind, summary and its
// arguments), for when describe.h cannot describe it (a pipeline whose workload is not
// registered yet): the package still loads, and calls it.
nlohmann::json bare_record(const fuselab::Variant &v) {
    nlohmann::json args = nlohmann::json::array();
    const halide_filter_metadata_t *md = v.metadata();
    for (int i = 0; i < md->num_arguments; i++) {
        const halide_filter_argument_t &a = md->arguments[i];
        if (a.kind == halide_argument_kind_input_scalar) continue;
        args.push_back({{"name", a.name},
                        {"kind", a.kind == halide_argument_kind_output_buffer ? "output" : "input"},
                        {"type", fuselab::type_name(a.type)},
                        {"dimensions", a.dimensions}});
    }
    return {{"pipeline", v.pipeline},
            {"schedule", v.schedule},
            {"target", v.target},
            {"kind", v.kind},
            {"summary", v.summary},
            {"autoscheduler", v.autoscheduler},
            {"limit", nullptr},
            {"kernels", v.kernels >= 0 ? nlohmann::json(v.kernels) : nlohmann::json()},
            {"intermediates", nullptr},
            {"arguments", args},
            {"cuda_kernels", nlohmann::json::array()}};
}

// The variants' records (describe.h), each with its storage type and full name from the
// registry, which lists them in the same order.
std::string variant_records() {
    const auto &vs = fuselab::variants();
    nlohmann::json all;
    try {
        all = nlohmann::json::parse(fuselab::variants_json());
    } catch (const std::exception &e) {
        std::fprintf(stderr, "fuselab: describing the variants failed (%s); listing them bare\n",
                     e.what());
        all = nlohmann::json::array();
        for (const fuselab::Variant &v : vs) all.push_back(bare_record(v));
    }
    if (!all.is_array() || all.size() != vs.size()) return all.dump(1);  // (never: one list)
    for (size_t i = 0; i < vs.size(); i++) {
        all[i]["dtype"] = vs[i].dtype && *vs[i].dtype ? vs[i].dtype : "float32";
        all[i]["name"] = vs[i].name();
    }
    return all.dump(1);
}

}  // namespace

extern "C" const char *fuselab_info(void) {
    static const std::string info = [] {
        const fuselab::CudaStatus &s = fuselab::cuda_status();
        nlohmann::json cuda = {{"usable", s.usable}, {"reason", s.reason}, {"device", s.device}};
        std::string workloads;
        try {
            workloads = fuselab::workloads_json();
        } catch (const std::exception &e) {
            std::fprintf(stderr, "fuselab: describing the workloads failed (%s)\n", e.what());
            workloads = "[]";
        }
        return "{\"variants\": " + variant_records() + ",\n\"workloads\": " + workloads +
               ",\n\"cuda\": " + cuda.dump() +
               ",\n\"dtypes\": [\"float32\", \"bfloat16\", \"float16\"]}";
    }();
    return info.c_str();
}

extern "C" int fuselab_find_variant(const char *pipeline, const char *schedule, const char *target,
                                    const char *dtype, char *err, size_t err_len) {
    try {
        const fuselab::Variant &v =
            fuselab::find_variant(pipeline ? pipeline : "", schedule ? schedule : "",
                                  target ? target : "", dtype && *dtype ? dtype : "float32");
        int index = 0;
        for (const fuselab::Variant &w : fuselab::variants()) {
            if (&w == &v) return index;
            index++;
        }
        throw Error("fuselab_find_variant: " + v.name() + " is not in the registry");
    } catch (const std::exception &e) {
        fail(err, err_len, e.what());
        return -1;
    }
}

extern "C" int fuselab_invoke(int index, int nargs, const fuselab_arg *args, void *stream,
                              char *err, size_t err_len) {
    try {
        const auto &all = fuselab::variants();
        if (index < 0 || static_cast<size_t>(index) >= all.size())
            throw Error("no variant number " + std::to_string(index));
        const fuselab::Variant &v = all[index];
        if (invoke_lean(v, nargs, args, stream)) return 0;
        std::vector<Described> described(nargs);
        fuselab::Bindings bindings;
        for (int i = 0; i < nargs; i++) {
            describe(args[i], v.name(), described[i]);
            if (!bindings.emplace(args[i].name, &described[i].buf).second)
                throw Error(v.name() + ": argument '" + args[i].name + "' given twice");
        }
        // Device memory Halide allocates here (for host memory given to a CUDA variant) is
        // freed again, into Halide's cache, whatever happens.
        struct Release {
            std::vector<Described> &d;
            ~Release() {
                for (size_t i = 0; i < d.size(); i++) {
                    if (d[i].buf.host && d[i].buf.device) halide_device_free(nullptr, &d[i].buf);
                }
            }
        } release{described};
        fuselab::invoke(v, bindings, stream);
        const halide_filter_metadata_t *md = v.metadata();
        for (int i = 0; i < md->num_arguments; i++) {
            if (md->arguments[i].kind != halide_argument_kind_output_buffer) continue;
            halide_buffer_t *out = bindings.at(md->arguments[i].name);
            if (out->host && out->device) fuselab::to_host(out, v.name(), stream);
        }
        return 0;
    } catch (const std::exception &e) {
        return fail(err, err_len, e.what());
    }
}

extern "C" int fuselab_output_shapes(const char *pipeline, int nargs, const fuselab_arg *inputs,
                                     char *json, size_t json_len, char *err, size_t err_len) {
    try {
        const fuselab::Workload &w = fuselab::find_workload(pipeline);
        fuselab::Shapes shapes;
        for (int i = 0; i < nargs; i++) {
            std::vector<int> &e = shapes[inputs[i].name];
            for (int d = inputs[i].ndim - 1; d >= 0; d--)
                e.push_back(checked_int32(inputs[i].shape[d], w.pipeline + " extent"));
        }
        const fuselab::Size size = fuselab::size_from_inputs(w, shapes);
        nlohmann::json out = nlohmann::json::object();
        for (const auto &[name, extents] : fuselab::output_shapes(w, size))
            out[name] = std::vector<int>(extents.rbegin(), extents.rend());
        const std::string text = out.dump();
        if (text.size() + 1 > json_len) throw Error("output shapes: buffer too small");
        std::memcpy(json, text.c_str(), text.size() + 1);
        return 0;
    } catch (const std::exception &e) {
        return fail(err, err_len, e.what());
    }
}

extern "C" int fuselab_choose(const char *pipeline, const char *target, int nargs,
                              const fuselab_arg *args, int tune, char *json, size_t json_len,
                              char *err, size_t err_len) {
    try {
        const std::string who = std::string(pipeline ? pipeline : "?");
        std::vector<Described> described(nargs);
        fuselab::Bindings bindings;
        for (int i = 0; i < nargs; i++) {
            describe(args[i], who, described[i]);
            if (!bindings.emplace(args[i].name, &described[i].buf).second)
                throw Error(who + ": argument '" + args[i].name + "' given twice");
        }
        fuselab::ChooseOptions opt;
        opt.target = target ? target : "auto";
        opt.tune = tune != 0;
        const fuselab::Choice c = fuselab::choose(who, bindings, opt);
        int index = 0;
        for (const fuselab::Variant &v : fuselab::variants()) {
            if (&v == c.variant) break;
            index++;
        }
        const std::string text = nlohmann::json{
            {"index", index},
            {"variant", c.variant->name()},
            {"schedule", c.variant->schedule},
            {"dtype", c.variant->dtype},
            {"source", c.source},
            {"reason", c.reason}}.dump();
        if (text.size() + 1 > json_len) throw Error(who + ": choose: buffer too small");
        std::memcpy(json, text.c_str(), text.size() + 1);
        return 0;
    } catch (const std::exception &e) {
        return fail(err, err_len, e.what());
    }
}
