#include "fuselab/describe.h"

#include <nlohmann/json.hpp>

#include "fuselab/invoke.h"
#include "fuselab/registry.h"
#include "fuselab/workloads.h"

namespace fuselab {
namespace {

Size default_size(const Variant &v) {
    const Workload &w = find_workload(v.pipeline);
    return v.is_cuda() ? w.cuda_sizes.front() : w.cpu_sizes.front();
}

nlohmann::json describe(const Variant &v) {
    nlohmann::json args = nlohmann::json::array();
    const halide_filter_metadata_t *md = v.metadata();
    for (int i = 0; i < md->num_arguments; i++) {
        const halide_filter_argument_t &a = md->arguments[i];
        // A buffer taken as kernel parameters (<buffer>_param_<n>, invoke.h) is one argument.
        const std::string name = a.name;
        const size_t at = name.rfind("_param_");
        if (a.kind == halide_argument_kind_input_scalar && at != std::string::npos && at > 0) {
            const std::string buffer = name.substr(0, at);
            if (!args.empty() && args.back()["name"] == buffer) {
                args.back()["parameters"] = args.back()["parameters"].get<int>() + 1;
            } else {
                args.push_back({{"name", buffer},
                                {"kind", "input"},
                                {"type", type_name(a.type)},
                                {"dimensions", nullptr},
                                {"parameters", 1}});
            }
            continue;
        }
        args.push_back({{"name", a.name},
                        {"kind", a.kind == halide_argument_kind_output_buffer ? "output" : "input"},
                        {"type", type_name(a.type)},
                        {"dimensions", a.dimensions}});
    }
    nlohmann::json kernels = nlohmann::json::array();
    for (int i = 0; i < v.num_resources; i++) {
        const KernelResources &k = v.resources[i];
        kernels.push_back({{"name", k.name},
                           {"registers", k.registers},
                           {"spill_store_bytes", k.spill_store_bytes},
                           {"spill_load_bytes", k.spill_load_bytes},
                           {"shared_bytes", k.shared_bytes >= 0 ? nlohmann::json(k.shared_bytes)
                                                                : nlohmann::json()},
                           {"threads", k.threads >= 0 ? nlohmann::json(k.threads)
                                                      : nlohmann::json()}});
    }
    const int64_t bytes = intermediate_bytes_at(v, default_size(v));
    auto known = [](int64_t x) { return x >= 0 ? nlohmann::json(x) : nlohmann::json(); };
    return {{"pipeline", v.pipeline},
            {"schedule", v.schedule},
            {"target", v.target},
            {"dtype", v.dtype},
            {"name", v.name()},
            {"kind", v.kind},
            {"summary", v.summary},
            {"autoscheduler", v.autoscheduler},
            // The documented limit under which it refuses calls in words (invoke.h), or null.
            {"limit", variant_limit(v).empty() ? nlohmann::json() : nlohmann::json(variant_limit(v))},
            {"kernels", known(v.kernels)},
            {"intermediates", known(v.intermediates)},
            {"intermediate_bytes_at_default_size", known(bytes)},
            {"default_size", format_size(default_size(v))},
            {"arguments", args},
            {"cuda_kernels", kernels}};
}

nlohmann::json element_tolerance(const Workload &w, const Size &size) {
    // float32's bound of the first output (workloads.h: element_tolerance_of)
    const ElementTolerance t = element_tolerance_of(w, size, "float32", "out");
    return {{"atol", t.atol}, {"rtol", t.rtol}, {"at_size", format_size(size)}};
}

nlohmann::json sizes(const std::vector<Size> &list) {
    nlohmann::json out = nlohmann::json::array();
    for (const Size &s : list) out.push_back(format_size(s));
    return out;
}

}  // namespace

std::string variants_json(const std::string &target) {
    nlohmann::json all = nlohmann::json::array();
    for (const Variant &v : variants()) {
        if (target.empty() || target == v.target) all.push_back(describe(v));
    }
    return all.dump(1);
}

std::string workloads_json() {
    nlohmann::json all = nlohmann::json::array();
    for (const Workload &w : workloads()) {
        nlohmann::json args = nlohmann::json::array();
        for (const ArgShape &a : w.shapes(w.cpu_sizes.front()))
            args.push_back({{"name", a.name}, {"output", a.output}, {"dimensions", a.extents.size()}});
        all.push_back({{"pipeline", w.pipeline},
                       {"size_format", w.size_format},
                       {"tolerance", w.tolerance},
                       {"element_tolerance", element_tolerance(w, w.cpu_sizes.front())},
                       {"cpu_sizes", sizes(w.cpu_sizes)},
                       {"cuda_sizes", sizes(w.cuda_sizes)},
                       {"arguments", args}});
    }
    return all.dump(1);
}

}  // namespace fuselab
