// pointwise_chain strategies differ only in which stages are stored at root: each root stage is
// one kernel (one parallel loop on the CPU); the stages between roots are inlined into the next.
#pragma once

#include <set>

#include "common.h"
#include "pointwise_chain.h"

namespace fuselab::pointwise_chain {

// `roots`: 1-based indices of s1..s9 to compute at root (out always is). On the CPU, 8 vectors a
// loop step: the fused chain (tanh and the sigmoid: two exps, two divisions) is one long
// dependency chain a vector, and 8 independent ones overlap where 4 left the core waiting: 24.7
// against 31.2 us at 65536 floats on one thread of this 2-core EPYC (2026-12-01, JIT).
inline void roots_at(PointwiseChain &g, const Halide::Target &target, const std::set<int> &roots) {
    std::vector<Halide::Func> stages = g.stages();
    for (size_t n = 0; n < stages.size(); n++) {
        const bool is_out = n + 1 == stages.size();
        if (is_out || roots.count(static_cast<int>(n) + 1)) {
            if (!is_out) stages[n].compute_root();
            pointwise_1d(stages[n], g.i, target, /*per_thread=*/4, /*cpu_vectors=*/8);
        }
    }
}

}  // namespace fuselab::pointwise_chain
