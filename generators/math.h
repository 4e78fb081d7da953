// Math shared by the generators' algorithms.
#pragma once

#include "Halide.h"

namespace fuselab {

// e^v. On CUDA through the hardware's base-2 exponential (libdevice's __nv_fast_expf:
// ex2.approx of v * log2(e), about 2 ulp for |v| < 10), as Triton's exp does; libdevice's
// accurate expf costs a range reduction and a second ex2. IEEE-accurate exp on the CPU.
inline Halide::Expr exp_for(const Halide::Expr &v, const Halide::Target &target) {
    if (!target.has_gpu_feature()) return Halide::exp(v);
    return Halide::Internal::Call::make(Halide::Float(32), "__nv_fast_expf", {v},
                                        Halide::Internal::Call::PureExtern);
}

// a / b. On CUDA with the hardware reciprocal (libdevice's __nv_fast_fdividef: div.approx, 2 ulp),
// as Triton's division does; IEEE division on the CPU.
inline Halide::Expr div_for(const Halide::Expr &a, const Halide::Expr &b,
                            const Halide::Target &target) {
    if (!target.has_gpu_feature()) return a / b;
    return Halide::Internal::Call::make(Halide::Float(32), "__nv_fast_fdividef", {a, b},
                                        Halide::Internal::Call::PureExtern);
}

// 1 / (1 + e^-v), with the fast exponential and division on CUDA (the IEEE division was a third
// of the fused chain's instructions).
inline Halide::Expr sigmoid(const Halide::Expr &v, const Halide::Target &target) {
    return div_for(1.0f, 1.0f + exp_for(-v, target), target);
}

// tanh(v). On CUDA as 1 - 2 / (1 + e^2v), branch-free, with the fast exponential and
// reciprocal: libdevice's tanhf branches on |v| < 0.55 (both sides run when a warp's lanes
// disagree) and was most of the fused chain's instructions, which made it issue-bound.
// Absolute error about 1e-7; relative error grows near v = 0, where tanh itself is small.
inline Halide::Expr tanh_for(const Halide::Expr &v, const Halide::Target &target) {
    if (!target.has_gpu_feature()) return Halide::tanh(v);
    return 1.0f - div_for(2.0f, 1.0f + exp_for(2.0f * v, target), target);
}

}  // namespace fuselab
