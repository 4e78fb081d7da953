// blur3x3 (seed §1.6's stencil case): a separable 3x3 box blur. in is (W+2) x (H+2), out is W x H.
#pragma once

#include "fuselab/schedule_registry.h"

namespace fuselab {

class Blur3x3 : public Halide::Generator<Blur3x3> {
public:
    GeneratorParam<std::string> schedule_name{"schedule", "tiled"};

    Input<Buffer<float, 2>> in{"in"};
    Output<Buffer<float, 2>> out{"out"};

    Var x{"x"}, y{"y"};
    Func bx{"bx"};  // the horizontal pass

    void generate();
    void schedule() { apply_schedule(*this, schedule_name, get_target()); }
};

}  // namespace fuselab
