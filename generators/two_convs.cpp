#include "two_convs.h"

namespace fuselab {

using namespace two_convs_detail;

void TwoConvs::generate() {
    r = RDom(0, 3, 0, 3, 0, input.dim(2).extent(), "r");
    const Expr w = input.dim(0).extent(), h = input.dim(1).extent();
    conv3x3_relu(input, w, h, weights1, bias1, out1, l1, r, x, y, k);
    conv3x3_relu(input, w, h, weights2, bias2, out2, l2, r, x, y, k);
    constrain_input(input);
    constrain(input, weights1, bias1, out1);
    constrain(input, weights2, bias2, out2);
    // K1 == K2 (the workloads' sizes have one K): the two outputs have one shape, so that a
    // schedule can run both in one loop nest without guards between them.
    weights2.dim(3).set_extent(weights1.dim(3).extent());
}

}  // namespace fuselab

HALIDE_REGISTER_GENERATOR(fuselab::TwoConvs, two_convs)
