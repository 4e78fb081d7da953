// pointwise_chain (seed §1.5): ten pointwise operators in a row.
#pragma once

#include "math.h"
#include "fuselab/schedule_registry.h"

namespace fuselab {

class PointwiseChain : public Halide::Generator<PointwiseChain> {
public:
    GeneratorParam<std::string> schedule_name{"schedule", "fused"};

    Input<Buffer<float, 1>> x{"x"};
    Output<Buffer<float, 1>> out{"out"};

    Var i{"i"};
    // s1..s9; out is the tenth operator.
    Func s1{"s1"}, s2{"s2"}, s3{"s3"}, s4{"s4"}, s5{"s5"}, s6{"s6"}, s7{"s7"}, s8{"s8"}, s9{"s9"};
    std::vector<Func> stages() { return {s1, s2, s3, s4, s5, s6, s7, s8, s9, out}; }

    void generate();
    void schedule() { apply_schedule(*this, schedule_name, get_target()); }
};

}  // namespace fuselab
