// The two forms of the branches pipelines, shared by branches and branches_indep.
#pragma once

#include "branches.h"
#include "common.h"

namespace fuselab::branches {

// Each output its own loop nest: 2 kernels on CUDA.
template <typename G>
void separate(G &g, const Halide::Target &target) {
    pointwise_1d(g.out1, g.i, target);
    pointwise_1d(g.out2, g.i, target);
}

// Both outputs in one loop nest (compute_with at the outermost split, so the GPU blocks are
// shared): 1 kernel on CUDA; each thread reads x once and writes both outputs.
template <typename G>
void horizontal(G &g, const Halide::Target &target) {
    pointwise_1d(g.out1, g.i, target);
    pointwise_1d(g.out2, g.i, target);
    g.out2.compute_with(g.out1, Halide::Var(g.i.name() + "_o"));
}

}  // namespace fuselab::branches
