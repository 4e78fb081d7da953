// add_relu (seed §1.4): out[i] = max(0, a[i] + b[i]).
#pragma once

#include "fuselab/schedule_registry.h"

namespace fuselab {

class AddRelu : public Halide::Generator<AddRelu> {
public:
    GeneratorParam<std::string> schedule_name{"schedule", "fused"};

    Input<Buffer<float, 1>> a{"a"};
    Input<Buffer<float, 1>> b{"b"};
    Output<Buffer<float, 1>> out{"out"};

    Var i{"i"};
    Func sum{"sum"};  // the seed's intermediate c

    void generate();
    void schedule() { apply_schedule(*this, schedule_name, get_target()); }
};

}  // namespace fuselab
