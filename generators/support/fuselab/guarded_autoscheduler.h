// The autoscheduler "fuselab_guarded": runs the autoscheduler named by autoscheduler.base (a loaded
// plugin, e.g. Anderson2021) and then turns every TailStrategy::RoundUp it chose into GuardWithIf.
//
// Why: Halide 21 computes the producers of a RoundUp stage only over the region its consumers
// need, but the stage itself over the rounded-up region, so the rounded tail reads its producers'
// allocations beyond what they computed. The values are discarded, yet they are reads of
// uninitialized device memory (compute-sanitizer initcheck counted 525,654 of them in
// stencil_chain_k8/auto). GuardWithIf computes exactly the region needed; the loop nest, tiles
// and thread mapping stay the autoscheduler's. fuselab uses it for the CUDA variants, where the
// rounded splits are block and thread tiles; on the CPU Adams2019's are vector lanes, which
// GuardWithIf would scalarize, so the CPU variants keep Adams2019 as it is.
#pragma once

#include <string>

#include "Halide.h"

namespace fuselab {
namespace detail {

inline void guard_round_up_tails(Halide::Internal::Definition &d) {
    for (Halide::Internal::Split &s : d.schedule().splits()) {
        if (s.tail == Halide::TailStrategy::RoundUp) s.tail = Halide::TailStrategy::GuardWithIf;
    }
}

inline void guard_round_up_tails(const Halide::Pipeline &p) {
    std::vector<Halide::Internal::Function> outputs;
    for (const Halide::Func &f : p.outputs()) outputs.push_back(f.function());
    for (auto &kv : Halide::Internal::build_environment(outputs)) {
        Halide::Internal::Function &f = kv.second;
        guard_round_up_tails(f.definition());
        for (size_t i = 0; i < f.updates().size(); i++) guard_round_up_tails(f.update(int(i)));
    }
}

inline void guarded_autoscheduler(const Halide::Pipeline &p, const Halide::Target &target,
                                  const Halide::AutoschedulerParams &params,
                                  Halide::AutoSchedulerResults *results) {
    Halide::AutoschedulerParams base = params;
    auto it = base.extra.find("base");
    if (it == base.extra.end() || it->second.empty()) {
        throw Halide::CompileError(
            "fuselab_guarded needs autoscheduler.base=<a loaded autoscheduler>");
    }
    base.name = it->second;
    base.extra.erase(it);
    *results = p.apply_autoscheduler(target, base);
    guard_round_up_tails(p);
    // The emitted schedule says what ran.
    std::string &src = results->schedule_source;
    const std::string from = "TailStrategy::RoundUp", to = "TailStrategy::GuardWithIf";
    for (size_t at = src.find(from); at != std::string::npos; at = src.find(from, at + to.size())) {
        src.replace(at, from.size(), to);
    }
    src = "// fuselab_guarded: " + base.name + "'s schedule, any RoundUp tail made GuardWithIf\n" +
          src;
    results->autoscheduler_params = params;
}

inline const bool guarded_autoscheduler_registered = [] {
    Halide::Pipeline::add_autoscheduler("fuselab_guarded", guarded_autoscheduler);
    return true;
}();

}  // namespace detail
}  // namespace fuselab
