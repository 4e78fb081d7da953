// branches (seed §1.3.1, horizontal fusion): two independent operators with two outputs.
//   branches:       out1 = max(0, 2x + 1), out2 = 0.5 sigmoid(x)   (one shared input)
//   branches_indep: out1 = max(0, 2x + 1), out2 = 0.5 sigmoid(y)   (two inputs: fusion saves
//                   only the launch, not a read)
#pragma once

#include "math.h"
#include "fuselab/schedule_registry.h"

namespace fuselab {

inline Halide::Expr branch1(Halide::Expr v) {
    return Halide::max(0.0f, 2.0f * v + 1.0f);
}
inline Halide::Expr branch2(Halide::Expr v, const Halide::Target &t) {
    return 0.5f * sigmoid(v, t);
}

class Branches : public Halide::Generator<Branches> {
public:
    GeneratorParam<std::string> schedule_name{"schedule", "horizontal"};

    Input<Buffer<float, 1>> x{"x"};
    Output<Buffer<float, 1>> out1{"out1"};
    Output<Buffer<float, 1>> out2{"out2"};

    Var i{"i"};

    void generate();
    void schedule() { apply_schedule(*this, schedule_name, get_target()); }
};

class BranchesIndep : public Halide::Generator<BranchesIndep> {
public:
    GeneratorParam<std::string> schedule_name{"schedule", "horizontal"};

    Input<Buffer<float, 1>> x{"x"};
    Input<Buffer<float, 1>> y{"y"};
    Output<Buffer<float, 1>> out1{"out1"};
    Output<Buffer<float, 1>> out2{"out2"};

    Var i{"i"};

    void generate();
    void schedule() { apply_schedule(*this, schedule_name, get_target()); }
};

}  // namespace fuselab
