// Math shared by the generators' algorithms.
#pragma once

#include "Halide.h"

namespace fuselab {

// e^v on the CPU: Halide's own vectorized polynomial (halide_exp: a range reduction by ln 2 and
// a degree-7 polynomial, a few ulp), with v clamped to [-87, 88] first. Halide converts
// v / ln 2 to an int32 exponent and returns inf or 0 outside the float range by that exponent,
// so a |v| past 2^31 ln 2 would wrap and give a wrong finite answer; clamped, e^v stays finite
// (e^88 = 1.7e38) and e^-87 = 1.6e-38, the smallest normal's order, which is 0 to any sum with
// 1 below.
inline Halide::Expr exp_cpu(const Halide::Expr &v) {
    return Halide::exp(Halide::clamp(v, -87.0f, 88.0f));
}

// e^v. On CUDA through the hardware's base-2 exponential (libdevice's __nv_fast_expf:
// ex2.approx of v * log2(e), about 2 ulp for |v| < 10), as Triton's exp does; libdevice's
// accurate expf costs a range reduction and a second ex2. On the CPU exp_cpu (above).
inline Halide::Expr exp_for(const Halide::Expr &v, const Halide::Target &target) {
    if (!target.has_gpu_feature()) return exp_cpu(v);
    return Halide::Internal::Call::make(Halide::Float(32), "__nv_fast_expf", {v},
                                        Halide::Internal::Call::PureExtern);
}

// a / b. On CUDA with the hardware reciprocal (libdevice's __nv_fast_fdividef: div.approx, 2 ulp),
// as Triton's division does; IEEE division on the CPU (vdivps: 0.5 ulp).
inline Halide::Expr div_for(const Halide::Expr &a, const Halide::Expr &b,
                            const Halide::Target &target) {
    if (!target.has_gpu_feature()) return a / b;
    return Halide::Internal::Call::make(Halide::Float(32), "__nv_fast_fdividef", {a, b},
                                        Halide::Internal::Call::PureExtern);
}

// 1 / (1 + e^-v), with the fast exponential and division on CUDA (the IEEE division was a third
// of the fused chain's instructions). On the CPU through exp_cpu and IEEE division, all vector
// instructions: at most 3.7e-7 relative over every 16th float (tools/math_check.cpp), no inf or NaN
// for any finite v.
inline Halide::Expr sigmoid(const Halide::Expr &v, const Halide::Target &target) {
    return div_for(1.0f, 1.0f + exp_for(-v, target), target);
}

// tanh(v) on the CPU, all in vector instructions (Halide's tanh calls the C library's scalar tanhf
// once per lane on x86, which made the fused chain compute-bound). Two forms, both computed and
// blended by |v| (a vector select: lanes never branch):
// - |v| < 0.55: v P(v^2), P of degree 5 fitted by tools/fit_tanh.py to tanh(v) / v in
//   relative error: about 1e-7 relative down to the smallest v, where 1 - 2 / (1 + e^2v) would
//   cancel (at v = 1e-4 its relative error is 6e-4).
// - otherwise 1 - 2 / (1 + e^2v), with v clamped to [-9, 9]: past 9, tanh is +-1 in float, and
//   e^18 is far from overflow. No cancellation there (|tanh| > 0.5); about 2e-7 relative.
// tools/math_check.cpp, against double tanh over every 16th float: at most 3.1e-7 relative.
inline Halide::Expr tanh_cpu(const Halide::Expr &v) {
    using Halide::Expr;
    const Expr u = v * v;
    Expr p = -0.00623389054f;
    for (float c : {0.0210384745f, -0.0538424067f, 0.133324578f, -0.333333105f, 1.0f}) {
        p = p * u + c;
    }
    const Expr small = v * p;
    const Expr large = 1.0f - 2.0f / (1.0f + exp_cpu(2.0f * Halide::clamp(v, -9.0f, 9.0f)));
    return Halide::select(Halide::abs(v) < 0.55f, small, large);
}

// tanh(v). On CUDA as 1 - 2 / (1 + e^2v), branch-free, with the fast exponential and
// reciprocal: libdevice's tanhf branches on |v| < 0.55 (both sides run when a warp's lanes
// disagree) and was most of the fused chain's instructions, which made it issue-bound.
// Absolute error about 1e-7; relative error grows near v = 0, where tanh itself is small.
// On the CPU tanh_cpu (above).
inline Halide::Expr tanh_for(const Halide::Expr &v, const Halide::Target &target) {
    if (!target.has_gpu_feature()) return tanh_cpu(v);
    return 1.0f - div_for(2.0f, 1.0f + exp_for(2.0f * v, target), target);
}

}  // namespace fuselab
