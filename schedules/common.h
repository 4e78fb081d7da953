// Building blocks shared by the strategy files: the loop shapes that recur, so that each
// strategy file says only which Funcs go where.
#pragma once

#include "Halide.h"

namespace fuselab {

// One pointwise 1-D stage as its own loop nest. CUDA: one kernel, 256 threads a block, each
// thread `per_thread` consecutive elements as one vector (wide loads). CPU: vectorized and split
// into parallel tasks, `cpu_vectors` native vectors a loop step (independent chains for the
// out-of-order core to overlap). Guarded tails: any N, including 1, is valid.
inline void pointwise_1d(Halide::Func f, const Halide::Var &i, const Halide::Target &target,
                         int per_thread = 4, int cpu_vectors = 4) {
    using namespace Halide;
    Var io{i.name() + "_o"}, ii{i.name() + "_i"}, iv{i.name() + "_v"};
    if (target.has_gpu_feature()) {
        f.split(i, io, iv, per_thread, TailStrategy::GuardWithIf)
            .gpu_tile(io, ii, 256, TailStrategy::GuardWithIf)
            .vectorize(iv);
    } else {
        const int lanes = target.natural_vector_size<float>();
        f.split(i, io, iv, lanes * cpu_vectors, TailStrategy::GuardWithIf)
            .split(io, io, ii, 1024, TailStrategy::GuardWithIf)
            .vectorize(iv)
            .parallel(io);
    }
}

}  // namespace fuselab
