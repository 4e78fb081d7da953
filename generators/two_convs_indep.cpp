#include "two_convs.h"

namespace fuselab {

using namespace two_convs_detail;

void TwoConvsIndep::generate() {
    r = RDom(0, 3, 0, 3, 0, input1.dim(2).extent(), "r");
    const Expr w = input1.dim(0).extent(), h = input1.dim(1).extent();
    conv3x3_relu(input1, w, h, weights1, bias1, out1, l1, r, x, y, k);
    conv3x3_relu(input2, w, h, weights2, bias2, out2, l2, r, x, y, k);
    constrain_input(input1);
    constrain_input(input2);
    for (int d = 0; d < 3; d++) input2.dim(d).set_bounds(0, input1.dim(d).extent());
    constrain(input1, weights1, bias1, out1);
    constrain(input1, weights2, bias2, out2);
    weights2.dim(3).set_extent(weights1.dim(3).extent());  // K1 == K2, as in two_convs
}

}  // namespace fuselab

HALIDE_REGISTER_GENERATOR(fuselab::TwoConvsIndep, two_convs_indep)
