#include "blur3x3.h"

namespace fuselab {

void Blur3x3::generate() {
    bx(x, y) = (in(x, y) + in(x + 1, y) + in(x + 2, y)) / 3.0f;
    out(x, y) = (bx(x, y) + bx(x, y + 1) + bx(x, y + 2)) / 3.0f;

    in.dim(0).set_min(0);
    in.dim(1).set_min(0);
    out.dim(0).set_bounds(0, in.dim(0).extent() - 2);
    out.dim(1).set_bounds(0, in.dim(1).extent() - 2);
    // Estimates: the default GPU size (8192 x 8192 out).
    in.set_estimates({{0, 8194}, {0, 8194}});
    out.set_estimates({{0, 8192}, {0, 8192}});
}

}  // namespace fuselab

HALIDE_REGISTER_GENERATOR(fuselab::Blur3x3, blur3x3)
