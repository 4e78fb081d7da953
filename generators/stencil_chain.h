// stencil_chain (seed §1.6, the over-fusion case): K 2x2 averaging stages. in is (W+K) x (H+K),
// out = s_K is W x H.
#pragma once

#include "fuselab/schedule_registry.h"

namespace fuselab {

class StencilChain : public Halide::Generator<StencilChain> {
public:
    GeneratorParam<std::string> schedule_name{"schedule", "tiled"};
    GeneratorParam<int> stages{"stages", 4, 1, 16};

    Input<Buffer<float, 2>> in{"in"};
    Output<Buffer<float, 2>> out{"out"};

    Var x{"x"}, y{"y"};
    // s[1] .. s[K]; out is a copy of s[K], so that a schedule can compute the last stage into
    // registers and store it as vectors (inlined into out otherwise: the same loop nest).
    std::vector<Func> s;

    void generate();
    void schedule() { apply_schedule(*this, schedule_name, get_target()); }
};

}  // namespace fuselab
