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
    std::vector<Func> s;  // s[1] .. s[K-1]; s[K] is out

    void generate();
    void schedule() { apply_schedule(*this, schedule_name, get_target()); }
};

}  // namespace fuselab
