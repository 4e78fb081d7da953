// Math shared by the generators' algorithms.
#pragma once

#include "Halide.h"

namespace fuselab {

// e^v on the CPU as 2^k (1 + q), in parts for exp_cpu and tanh_cpu: k = round(v / ln 2), taken
// as the truncation of v / ln 2 + 128.5 (positive for v >= -88, so truncating rounds; x86 truncates
// a float vector in one instruction, where Halide's round splits 512-bit vectors in halves),
// r = v - k ln 2 in two steps (Cody and Waite: ln 2's high part has 12 significant bits, so k
// ln2_hi is exact), q = e^r - 1 by its Taylor series to r^7 (|r| <= ln 2 / 2: the first term left
// out, r^8 / 8!, is 1.4e-8 of e^r - 1), 2^k by the exponent's bits. v must lie in [-87, 88], so
// that 2^k is a normal float: no overflow or underflow branch. Halide's exp has no e^v - 1, which
// tanh_cpu needs near 0.
struct ExpParts {
    Halide::Expr k, two_k, q;  // e^v = two_k (1 + q), two_k = 2^k
};
inline ExpParts exp_parts(const Halide::Expr &v) {
    using Halide::Expr;
    const Expr k_biased = Halide::cast<int>(v * 1.44269504f + 128.5f);  // k + 128
    const Expr k = Halide::cast<float>(k_biased - 128);
    const Expr r = (v - k * 0.693145752f) - k * 1.42860677e-6f;
    Expr q = 1.0f / 5040;
    for (float c : {1.0f / 720, 1.0f / 120, 1.0f / 24, 1.0f / 6, 0.5f, 1.0f}) q = q * r + c;
    const Expr two_k = Halide::reinterpret<float>((k_biased - 1) << 23);  // (k + 127) << 23
    return {k, two_k, q * r};
}

// e^v on the CPU, all vector instructions, v clamped to [-87, 88] first: e^88 = 1.7e38 stays
// finite and e^-87 = 1.6e-38 is the smallest normal's order, which is 0 to any sum with 1.
inline Halide::Expr exp_cpu(const Halide::Expr &v) {
    const ExpParts e = exp_parts(Halide::clamp(v, -87.0f, 88.0f));
    return e.two_k + e.two_k * e.q;
}

// e^d for softmax on the CPU, where d = x - max x is at most 0: 2^k p(r), with k = round(d / ln 2)
// read off the bits of one multiply-add, t = d log2(e) + (1.5 2^23 + 127): t's ulp is 1, so the
// addition rounds, and t's low mantissa bits hold k + 127, already 2^k's biased exponent (2^k is
// those bits shifted into the exponent; k an integer subtraction and a conversion, not a float
// subtraction, which fast math could fold). d is clamped at -88.2 first: there k = -127, whose
// biased exponent 0 makes 2^k, and so the result, exactly 0 (as for -inf) with no select; e^d is
// below 1.2e-38 wherever that happens. r = d - k ln 2 as in exp_parts (LLVM's fast math makes the
// two steps one multiply-add), and p = 1 + r q(r) a degree-5 polynomial (exactly 1 at r = 0,
// where each row's largest element is) fitted to e^r on [-ln 2 / 2, ln 2 / 2] for the least
// largest relative error (Lawson's iteration; 9.2e-8, 1.7e-7 evaluated in float32, against the
// bound of 2e-5 that softmax's outputs have: suite/rows.cpp). 12 vector operations, where the
// earlier form (a truncation, and a select for d < -87) took 14; tools/math_check.cpp checks it
// over every 16th float at or below 0 as built (4.0e-7 relative at most).
inline Halide::Expr exp_nonpositive_cpu(const Halide::Expr &d) {
    using Halide::Expr;
    const Expr v = Halide::max(d, -88.2f);
    const Expr bits = Halide::reinterpret<int>(v * 1.44269504f + 12583039.0f);  // 1.5 2^23 + 127
    const Expr k = Halide::cast<float>(bits - 0x4b40007f);                      // t's bits - 127's
    const Expr r = (v - k * 0.693145752f) - k * 1.42860677e-6f;
    Expr p = 0.0082903029f;
    for (float c : {0.041897915f, 0.16667636f, 0.49999151f, 0.9999997f, 1.0f}) p = p * r + c;
    return Halide::reinterpret<float>(bits << 23) * p;
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

// 1 / sqrt(v). On CUDA with the hardware's (libdevice's __nv_rsqrtf: rsqrt.approx, 2^-22.9
// relative), as torch's rsqrt on CUDA; the IEEE square root and division took about 20
// instructions a row with their slow paths (SASS of rmsnorm_residual/warp_regs_1k), 2.5 an
// element of a row of 256 in bfloat16. IEEE on the CPU (vsqrtps, vdivps).
inline Halide::Expr rsqrt_for(const Halide::Expr &v, const Halide::Target &target) {
    if (!target.has_gpu_feature()) return 1.0f / Halide::sqrt(v);
    return Halide::Internal::Call::make(Halide::Float(32), "__nv_rsqrtf", {v},
                                        Halide::Internal::Call::PureExtern);
}

// 1 / (1 + e^-v), with the fast exponential and division on CUDA (the IEEE division was a third
// of the fused chain's instructions). On the CPU through exp_cpu and IEEE division, all vector
// instructions: at most 3.4e-7 relative over every 16th float (tools/math_check.cpp), no inf or NaN
// for any finite v.
inline Halide::Expr sigmoid(const Halide::Expr &v, const Halide::Target &target) {
    return div_for(1.0f, 1.0f + exp_for(-v, target), target);
}

// tanh(v) on the CPU, all in vector instructions (Halide's tanh calls the C library's scalar tanhf
// once per lane on x86, which made the fused chain compute-bound): m / (m + 2) with m = e^2v - 1
// from exp_parts, v clamped to [-9, 9] (past 9 tanh is +-1 in float). m = 2^k q + (2^k - 1) has no
// cancellation near v = 0, where k = 0 and m = q, so one form holds for every v; the earlier blend
// of a polynomial for |v| < 0.55 with 1 - 2 / (1 + e^2v) computed both, and the fused chain ran
// 20% slower with it (25.5 against 20.7 us at 2^16 on one thread of this EPYC, JIT, 2026-12-01).
// tools/math_check.cpp, against double tanh over every 16th float: at most 2.5e-7 relative.
inline Halide::Expr tanh_cpu(const Halide::Expr &v) {
    const ExpParts e = exp_parts(2.0f * Halide::clamp(v, -9.0f, 9.0f));
    // k = 0 takes q itself: Halide's simplifier reassociates the sum into (2^k q + 2^k) - 1, the
    // cancellation this form avoids (strict_float would stop it, and multiply-add contraction in
    // the whole pipeline with it). For k != 0, |m| > 0.29 and the reassociated sum loses at most
    // an ulp of 2^k (1 + q).
    const Halide::Expr m = Halide::select(e.k == 0.0f, e.q, e.two_k * e.q + (e.two_k - 1.0f));
    return m / (m + 2.0f);
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
