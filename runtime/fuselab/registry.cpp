#include "fuselab/registry.h"

#include <cstring>
#include <unordered_set>

#include "fuselab/error.h"

namespace fuselab {
namespace {
// Constructed on first use, so that registration from any static initializer finds it.
std::deque<Variant> &registry() {
    static std::deque<Variant> list;
    return list;
}
}  // namespace

std::string Variant::name() const {
    std::string n = std::string(pipeline) + "/" + schedule + "/" + target;
    if (std::string(dtype) != "float32") n += std::string("/") + dtype;
    return n;
}

const char *dtype_of(const halide_type_t &t) {
    if (t.lanes != 1) return "";
    if (t.code == halide_type_float && t.bits == 32) return "float32";
    if (t.code == halide_type_float && t.bits == 16) return "float16";
    if ((t.code == halide_type_uint || t.code == halide_type_bfloat) && t.bits == 16)
        return "bfloat16";
    return "";
}

halide_type_t dtype_type(const std::string &dtype) {
    if (dtype == "float32") return halide_type_t(halide_type_float, 32);
    if (dtype == "float16") return halide_type_t(halide_type_float, 16);
    if (dtype == "bfloat16") return halide_type_t(halide_type_uint, 16);
    throw Error("unknown storage type '" + dtype + "'; known: float32 bfloat16 float16");
}

bool Variant::is_cuda() const {
    return std::strcmp(target, "cuda") == 0;  // no string built: check() asks it per dimension
}

const std::deque<Variant> &variants() {
    return registry();
}

void register_variants(const Variant *list, size_t n) {
    // A set of the names: a scan of the registry for each new variant was quadratic in the 302
    // variants and most of a process's start (`fuselab list`: 100.9 million instructions before,
    // 9.6 million after; results/runs/2026-12-05-cpu-s35/registry_start.txt).
    static std::unordered_set<std::string> names;
    for (size_t i = 0; i < n; i++) {
        std::string name = list[i].name();
        if (!names.insert(name).second) throw Error("variant " + name + " is registered twice");
        registry().push_back(list[i]);
    }
}

const Variant &find_variant(const std::string &pipeline, const std::string &schedule,
                            const std::string &target, const std::string &dtype) {
    std::string same_pipeline, types;
    for (const Variant &v : variants()) {
        if (pipeline != v.pipeline || target != v.target) continue;
        if (dtype == v.dtype) {
            if (schedule == v.schedule) return v;
            same_pipeline += std::string(" ") + v.schedule;
        } else if (types.find(std::string(" ") + v.dtype) == std::string::npos) {
            types += std::string(" ") + v.dtype;
        }
    }
    std::string wanted = pipeline + "/" + schedule + "/" + target;
    if (dtype != "float32") wanted += "/" + dtype;
    if (same_pipeline.empty() && !types.empty()) {
        throw Error("unknown variant " + wanted + ": pipeline '" + pipeline + "' on " + target +
                    " is built for the storage types" + types + ", not " + dtype);
    }
    if (same_pipeline.empty()) {
        throw Error("unknown variant " + wanted + ": no pipeline '" + pipeline +
                    "' is built for target '" + target + "' (see `fuselab list`)");
    }
    throw Error("unknown variant " + wanted + ": pipeline '" + pipeline + "' on " + target +
                " in " + dtype + " has schedules:" + same_pipeline);
}

}  // namespace fuselab
