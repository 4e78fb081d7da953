// scale_bias_relu: out(i) = max(0, a(i) * x(i) + b(i)), float32, 1-D. The algorithm; its
// strategies are in strategies/.
#pragma once

#include "fuselab/schedule_registry.h"

namespace downstream {

class ScaleBiasRelu : public Halide::Generator<ScaleBiasRelu> {
public:
    GeneratorParam<std::string> schedule_name{"schedule", "fused"};

    Input<Buffer<float, 1>> x{"x"};
    Input<Buffer<float, 1>> a{"a"};
    Input<Buffer<float, 1>> b{"b"};
    Output<Buffer<float, 1>> out{"out"};

    Var i{"i"};
    Func scaled{"scaled"}, biased{"biased"};

    void generate() {
        scaled(i) = a(i) * x(i);
        biased(i) = scaled(i) + b(i);
        out(i) = Halide::max(0.0f, biased(i));

        a.dim(0).set_bounds(x.dim(0).min(), x.dim(0).extent());
        b.dim(0).set_bounds(x.dim(0).min(), x.dim(0).extent());
        out.dim(0).set_bounds(x.dim(0).min(), x.dim(0).extent());
        x.set_estimates({{0, 1 << 24}});
        a.set_estimates({{0, 1 << 24}});
        b.set_estimates({{0, 1 << 24}});
        out.set_estimates({{0, 1 << 24}});
    }
    void schedule() { fuselab::apply_schedule(*this, schedule_name, get_target()); }
};

// One 1-D stage as its own loop nest: CUDA blocks of 256 threads, 4 elements a thread; CPU
// vectors in parallel tasks. Guarded tails: any N.
inline void own_loop(Halide::Func f, const Halide::Var &i, const Halide::Target &target) {
    using Halide::TailStrategy;
    Halide::Var io{"io"}, ii{"ii"}, iv{"iv"};
    if (target.has_gpu_feature()) {
        f.split(i, io, iv, 4, TailStrategy::GuardWithIf)
            .gpu_tile(io, ii, 256, TailStrategy::GuardWithIf)
            .vectorize(iv);
    } else {
        f.split(i, io, iv, target.natural_vector_size<float>() * 4, TailStrategy::GuardWithIf)
            .split(io, io, ii, 1024, TailStrategy::GuardWithIf)
            .vectorize(iv)
            .parallel(io);
    }
}

}  // namespace downstream
