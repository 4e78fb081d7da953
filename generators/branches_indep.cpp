#include "branches.h"

namespace fuselab {

void BranchesIndep::generate() {
    out1(i) = branch1(x(i));
    out2(i) = branch2(y(i), get_target());

    y.dim(0).set_bounds(x.dim(0).min(), x.dim(0).extent());
    out1.dim(0).set_bounds(x.dim(0).min(), x.dim(0).extent());
    out2.dim(0).set_bounds(x.dim(0).min(), x.dim(0).extent());
    // Estimates: the default GPU size (2^28).
    x.set_estimates({{0, 1 << 28}});
    y.set_estimates({{0, 1 << 28}});
    out1.set_estimates({{0, 1 << 28}});
    out2.set_estimates({{0, 1 << 28}});
}

}  // namespace fuselab

HALIDE_REGISTER_GENERATOR(fuselab::BranchesIndep, branches_indep)
