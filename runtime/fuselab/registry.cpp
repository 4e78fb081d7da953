#include "fuselab/registry.h"

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
    return std::string(pipeline) + "/" + schedule + "/" + target;
}

bool Variant::is_cuda() const {
    return std::string(target) == "cuda";
}

const std::deque<Variant> &variants() {
    return registry();
}

void register_variants(const Variant *list, size_t n) {
    for (size_t i = 0; i < n; i++) {
        for (const Variant &v : registry()) {
            if (v.name() == list[i].name())
                throw Error("variant " + v.name() + " is registered twice");
        }
        registry().push_back(list[i]);
    }
}

const Variant &find_variant(const std::string &pipeline, const std::string &schedule,
                            const std::string &target) {
    std::string same_pipeline;
    for (const Variant &v : variants()) {
        if (pipeline == v.pipeline && schedule == v.schedule && target == v.target) return v;
        if (pipeline == v.pipeline && target == v.target)
            same_pipeline += std::string(" ") + v.schedule;
    }
    const std::string wanted = pipeline + "/" + schedule + "/" + target;
    if (same_pipeline.empty()) {
        throw Error("unknown variant " + wanted + ": no pipeline '" + pipeline +
                    "' is built for target '" + target + "' (see `fuselab list`)");
    }
    throw Error("unknown variant " + wanted + ": pipeline '" + pipeline + "' on " + target +
                " has schedules:" + same_pipeline);
}

}  // namespace fuselab
