#include "add_relu.h"

namespace fuselab {

void AddRelu::generate() {
    sum(i) = a(i) + b(i);
    out(i) = max(0.0f, sum(i));

    // The output has the inputs' extent: a shorter or longer buffer is an error, not a partial
    // result.
    out.dim(0).set_bounds(a.dim(0).min(), a.dim(0).extent());
    b.dim(0).set_bounds(a.dim(0).min(), a.dim(0).extent());

    // Estimates: the default GPU size (2^28).
    a.set_estimates({{0, 1 << 28}});
    b.set_estimates({{0, 1 << 28}});
    out.set_estimates({{0, 1 << 28}});
}

}  // namespace fuselab

HALIDE_REGISTER_GENERATOR(fuselab::AddRelu, add_relu)
