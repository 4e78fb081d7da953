// Math shared by the generators' algorithms.
#pragma once

#include "Halide.h"

namespace fuselab {

// 1 / (1 + e^-v). On CUDA with the fast reciprocal (rcp.approx, within 1 ulp), as Triton's
// sigmoid does: the IEEE division was a third of the fused chain's instructions. On x86 the
// fast reciprocal has 12 bits only, so the CPU keeps the division.
inline Halide::Expr sigmoid(const Halide::Expr &v, const Halide::Target &target) {
    const Halide::Expr d = 1.0f + Halide::exp(-v);
    return target.has_gpu_feature() ? Halide::fast_inverse(d) : 1.0f / d;
}

}  // namespace fuselab
