#include "fuselab/registry.h"

#include "fuselab/error.h"

namespace fuselab {

std::string Variant::name() const {
    return std::string(pipeline) + "/" + schedule + "/" + target;
}

bool Variant::is_cuda() const {
    return std::string(target) == "cuda";
}

const std::vector<Variant> &variants() {
    return detail::generated_variants();
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
