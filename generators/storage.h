// Storage types of the row pipelines (softmax, rmsnorm_residual, layernorm): the `dtype`
// GeneratorParam's names, the Halide type of a buffer of each, and the conversions to and from
// the float32 the math is done in. Each output is rounded to its storage type once, at the end.
//
//   float32  -> Float(32)
//   float16  -> Float(16). On CUDA, by the hardware: widened by cvt.f32.f16, rounded by
//               cvt.rn.f16.f32, and where the rows are not whole aligned 16-byte vectors (so that
//               Halide's guarded vectors become LLVM masked stores of half lanes) the rounding's
//               NaN made canonical by a select on its bits (half_guarded), because without one
//               LLVM miscompiles that store: it stores the float32's low 16 bits, unrounded (the
//               NaN of s15, results/runs/2026-12-02-h200-s15/bucket_search; s26 found the
//               store in the PTX and told the sides apart: results/runs/2026-12-04-h200-s26/h).
//               s15 to s25 converted such rows through the bits, with integer and float32
//               operations only (half_bits_to_float, float_to_half_bits: 13 and 17 of them an
//               element), 1.0 to 2.3x slower (h/); softmax's register forms still do, where
//               that ran faster (their half_route param). On x86 the native casts (f16c:
//               vcvtph2ps, vcvtps2ph), right on every CPU test.
//   bfloat16 -> UInt(16) holding the bfloat16 bits, the bytes of torch.bfloat16. Halide 21's
//               BFloat(16) aborts the PTX backend ("Invalid cast!") on any cast or arithmetic.
#pragma once

#include <string>

#include "Halide.h"

namespace fuselab {

// How CUDA code converts float16: widening by the hardware on every row and rounding by it too,
// on rows that are not whole aligned vectors behind a select on its bits (Guarded, the default,
// above: half_guarded); rounding through the bits there instead (WidenNative, s26's first build);
// both sides by alignment, through the bits elsewhere (Aligned, s15 to s25's route); through its
// bits always (Bits); by the hardware always, unguarded (Native); rounding by the hardware always,
// unguarded (NarrowNative: the miscompiled side). tools/row_search.cpp sets the others to
// compare them on the GPU; every built variant uses the default.
enum class HalfRoute { Guarded, WidenNative, Aligned, Bits, Native, NarrowNative };
inline HalfRoute gpu_half_route = HalfRoute::Guarded;

// Every row of these 2-D buffers starts a multiple of `v` elements from the buffer's start and
// holds whole vectors of `v` (the first buffer's rows' length is a multiple of v): with v = 16 /
// the element's bytes and 16-byte aligned buffers (rows_common.h: align_buffers), rows of whole
// 16-byte vectors, none masked. The row strategies specialize on this same expression
// (rows_common.h: aligned_rows), which is what folds the float16 route's select away. Only
// strided views whose rows are not a whole number of vectors fail it and not the alignment alone.
template <typename B0, typename... B>
Halide::Expr rows_aligned(int v, const B0 &first, const B &...buffers) {
    Halide::Expr c = first.dim(1).stride() % v == 0;
    ((c = c && buffers.dim(1).stride() % v == 0), ...);
    return c && first.dim(0).extent() % v == 0;
}

// Where a float16 conversion on `target` (a widening, or a rounding) takes the hardware's plain
// route: true on the CPU; on CUDA under the default route every widening, and a rounding where
// the rows are `aligned` (rows_aligned).
inline Halide::Expr half_by_hardware(const Halide::Target &target, const Halide::Expr &aligned,
                                     bool widening) {
    const HalfRoute r = gpu_half_route;
    const bool native =
        r == HalfRoute::Native || (widening ? r == HalfRoute::Guarded || r == HalfRoute::WidenNative
                                            : r == HalfRoute::NarrowNative);
    if (!target.has_gpu_feature() || native) {
        return Halide::Internal::const_true();
    }
    if (r == HalfRoute::Bits || !aligned.defined()) {
        return Halide::Internal::const_false();
    }
    return aligned;
}

// float32 rounded to float16 by the hardware (cvt.rn.f16.f32), a NaN made the quiet NaN 0x7e00 by
// a select on the result's bits, for stores that may be masked (rows that are not whole aligned
// vectors). Without the select, the NVPTX backend of Halide 21.0.0's LLVM folds the rounding of
// a float32 pair into the masked store of its two halves and stores each float32's low 16 bits,
// unrounded (st.global.b16 of a 64-bit register holding the pair, no cvt: the PTX of
// softmax/warp_row's general kernel, s26): the NaN of s15 and s26 h/. The select needs the
// result's bits, so the rounding stays (tests/test_wide_accesses.py checks every 16-bit variant's
// PTX for the pattern).
inline Halide::Expr half_guarded(const Halide::Expr &f) {
    using namespace Halide;
    const Type u16 = UInt(16, f.type().lanes());
    const Expr b = reinterpret(u16, cast(Float(16, f.type().lanes()), f));
    return reinterpret(Float(16, f.type().lanes()),
                       select((b & cast(u16, 0x7fff)) > cast(u16, 0x7c00), cast(u16, 0x7e00), b));
}

// `hw` where it is a constant, else select(hw, hw_value, bits_value).
inline Halide::Expr half_route(const Halide::Expr &hw, const Halide::Expr &by_hw,
                               const Halide::Expr &by_bits) {
    if (Halide::Internal::is_const_one(hw)) return by_hw;
    if (Halide::Internal::is_const_zero(hw)) return by_bits;
    return Halide::select(hw, by_hw, by_bits);
}

// The Halide type of a buffer of `dtype` ("float32", "bfloat16", "float16").
inline Halide::Type storage_type(const std::string &dtype) {
    if (dtype == "float32") return Halide::Float(32);
    if (dtype == "float16") return Halide::Float(16);
    if (dtype == "bfloat16") return Halide::UInt(16);
    throw Halide::CompileError("unknown dtype '" + dtype + "'; known: float32 bfloat16 float16");
}

// The bytes of one element of `dtype`.
inline int storage_bytes(const std::string &dtype) {
    return storage_type(dtype).bytes();
}

// float16 bits (UInt(16) lanes) as float32, exactly: normal values rebias the exponent
// (+112), inf and NaN keep an all-ones exponent (+224), and subnormals (exponent 0) are
// mantissa x 2^-24, made exact by one float32 subtraction (2^-14 (1 + m/1024) - 2^-14).
// The variants that convert through the bits (softmax's register forms on unaligned rows:
// half_route) run exactly s25's code: a 9-operation version ran softmax warp_regs_1k float16 at
// N = 901 0.75 to 0.82x (s26 n/), not understood.
inline Halide::Expr half_bits_to_float(const Halide::Expr &h) {
    using namespace Halide;
    const int lanes = h.type().lanes();
    const Type u32 = UInt(32, lanes), f32 = Float(32, lanes);
    const Expr u = cast(u32, h);
    const Expr sign = (u & cast(u32, 0x8000)) << 16;
    const Expr em = u & cast(u32, 0x7fff);
    const Expr o = (em << 13) + cast(u32, 112 << 23);
    const Expr sub = reinterpret(
        u32, reinterpret(f32, o + cast(u32, 1 << 23)) - reinterpret(f32, cast(u32, 113 << 23)));
    const Expr bits =
        select(em >= cast(u32, 0x7c00), o + cast(u32, 112 << 23), em < cast(u32, 0x0400), sub, o);
    return reinterpret(f32, bits | sign);
}

// A float32 rounded to the nearest float16, ties to even, as its bits (UInt(16) lanes): NaN ->
// 0x7e00, at or above 65520 -> inf (the rounding carries into the exponent), below 2^-14 ->
// a subnormal, rounded by one float32 addition of 0.5 (its ulp there is 2^-24, float16's).
// The built variants round by the hardware (half_guarded) but softmax's register forms on
// unaligned rows (half_route).
inline Halide::Expr float_to_half_bits(const Halide::Expr &f) {
    using namespace Halide;
    const int lanes = f.type().lanes();
    const Type u32 = UInt(32, lanes), f32 = Float(32, lanes);
    const Expr bits = reinterpret(u32, f);
    const Expr sign = (bits >> 16) & cast(u32, 0x8000);
    const Expr a = bits & cast(u32, 0x7fffffff);
    const Expr sub = reinterpret(u32, reinterpret(f32, a) + cast(f32, 0.5f)) - cast(u32, 126 << 23);
    const Expr odd = (a >> 13) & cast(u32, 1);
    const Expr normal = (a + (cast(u32, 0xfff) + odd) - cast(u32, 112 << 23)) >> 13;
    const Expr h = select(a > cast(u32, 0x7f800000), cast(u32, 0x7e00), a >= cast(u32, 0x47800000),
                          cast(u32, 0x7c00), a < cast(u32, 0x38800000), sub, normal);
    return cast(UInt(16, lanes), h | sign);
}

// A stored value as float32 (exact for every type). bfloat16: its 16 bits are the high half of
// the float32's. float16: by half_by_hardware(target, aligned, true)'s route (the hardware's
// under the default route).
inline Halide::Expr widen(const Halide::Expr &v, const Halide::Target &target,
                          const Halide::Expr &aligned = Halide::Expr()) {
    using namespace Halide;
    const Type t = v.type().element_of();
    if (t == Float(32)) return v;
    if (t == Float(16)) {
        return half_route(half_by_hardware(target, aligned, true),
                          cast(Float(32, v.type().lanes()), v),
                          half_bits_to_float(reinterpret(UInt(16, v.type().lanes()), v)));
    }
    if (t == UInt(16)) {
        return reinterpret(Float(32, v.type().lanes()), cast(UInt(32, v.type().lanes()), v) << 16);
    }
    throw CompileError("widen: no storage type is stored as this type");
}

// A float32 rounded to the storage type `t`, to nearest even, as torch rounds. bfloat16: add
// 0x7fff plus the lowest kept bit to the float32's bits and keep the high half (a carry into the
// exponent is the correct rounding, up to inf; finite values never carry into the sign); a NaN
// becomes the quiet NaN 0x7fc0, as c10's round_to_nearest_even does (rounding CUDA's NaN,
// 0x7fffffff, would carry into -0): on CUDA by capping the bits (below), on the CPU by a test on
// the bits: Halide compiles float math with LLVM's no-NaN flags, which entitle LLVM to drop a
// float NaN test (it dropped one on a float16 value), and the x86 code keeps this one (checked
// in the generated code). float16: the
// hardware's round to nearest even (cvt.rn.f16.f32, vcvtps2ph), on CUDA's unaligned rows behind
// half_guarded's select (other routes: half_by_hardware(target, aligned, false), else the bits,
// float_to_half_bits). `no_nan`: the caller has ruled a
// NaN out (softmax on CUDA tests each row once, on its sum), and bfloat16 skips its test per
// element, 2 of the 6 instructions an element of its narrowing (SASS of softmax/staged_row_2k).
inline Halide::Expr narrow(const Halide::Expr &f, const Halide::Type &t,
                           const Halide::Target &target,
                           const Halide::Expr &aligned = Halide::Expr(), bool no_nan = false) {
    using namespace Halide;
    const int lanes = f.type().lanes();
    if (t == Float(32)) return f;
    if (t == Float(16)) {
        const Expr elsewhere = target.has_gpu_feature() && gpu_half_route == HalfRoute::Guarded
                                   ? half_guarded(f)
                                   : reinterpret(Float(16, lanes), float_to_half_bits(f));
        return half_route(half_by_hardware(target, aligned, false), cast(Float(16, lanes), f),
                          elsewhere);
    }
    if (t == UInt(16)) {
        const Type u32 = UInt(32, lanes);
        Expr bits = reinterpret(u32, f);
        if (!no_nan && target.has_gpu_feature()) {
            // CUDA: a NaN that arithmetic makes is PTX's canonical NaN, 0x7fffffff, whose
            // rounding would carry into the sign (-0); every value narrowed here is such a result
            // (a sum, a product). Its bits are capped at 0x7fc00000 as a signed integer (one
            // IMNMX), which rounds to 0x7fc0 and leaves every other value, negative ones included,
            // as it was. The select on a NaN test took 4 instructions an element (the test's abs
            // and compare, the select, and a PRMT to put the 16-bit value back in place: SASS of
            // rmsnorm_residual/warp_regs_1k, s36), this 1.
            bits = reinterpret(u32, min(reinterpret(Int(32, lanes), bits), 0x7fc00000));
            no_nan = true;
        }
        const Expr rounded = (bits + (cast(u32, 0x7fff) + ((bits >> 16) & 1))) >> 16;
        if (no_nan) return cast(UInt(16, lanes), rounded);
        const Expr nan = (bits & cast(u32, 0x7fffffff)) > cast(u32, 0x7f800000);
        return select(nan, cast(UInt(16, lanes), 0x7fc0), cast(UInt(16, lanes), rounded));
    }
    throw CompileError("narrow: not a storage type");
}

// The storage bits of a value of storage type `t` (a stored value, or narrow()'s result) as an
// unsigned integer of the same width.
inline Halide::Expr storage_bits(const Halide::Expr &v) {
    return Halide::reinterpret(Halide::UInt(v.type().bits(), v.type().lanes()), v);
}

// narrow(f, t), or the type's quiet NaN where `nan` holds: the choice is made on the stored bits,
// which no floating-point assumption of the compiler can fold away. `no_nan`: f is NaN only
// where `nan` holds (narrow's).
inline Halide::Expr narrow_or_nan(const Halide::Expr &f, const Halide::Expr &nan,
                                  const Halide::Type &t, const Halide::Target &target,
                                  const Halide::Expr &aligned = Halide::Expr(),
                                  bool no_nan = false) {
    using namespace Halide;
    const Expr stored = narrow(f, t, target, aligned, no_nan);
    const Type u = UInt(t.bits(), f.type().lanes());
    const int qnan = t == Float(32) ? 0x7fc00000 : t == Float(16) ? 0x7e00 : 0x7fc0;
    return reinterpret(stored.type(), select(nan, cast(u, qnan), storage_bits(stored)));
}

// An int32 key of a stored value whose integer order is the values' order: -inf < ... < -0 <
// +0 < ... < +inf < every NaN. Computed on the stored bits, so that a NaN or an inf in the input
// is seen whatever the compiler assumes of float math (Halide's float max may drop a NaN).
inline Halide::Expr order_key(const Halide::Expr &stored) {
    using namespace Halide;
    const int bits = stored.type().bits(), lanes = stored.type().lanes();
    const Type i32 = Int(32, lanes);
    // From the zero-extended bits: a value's key is its magnitude, a negative one's -1 - its
    // magnitude (what sign-extending and flipping the magnitude gives, with no sign extension
    // of a 16-bit value, which is one fewer thing for a backend to get wrong).
    const Expr u = cast(UInt(32, lanes), reinterpret(UInt(bits, lanes), stored));
    const int mag_mask = bits == 32 ? 0x7fffffff : 0x7fff;
    const int inf_bits = stored.type() == Float(32)   ? 0x7f800000
                         : stored.type() == Float(16) ? 0x7c00
                                                      : 0x7f80;  // bfloat16 in UInt(16)
    const Expr mag = cast(i32, u & cast(UInt(32, lanes), mag_mask));
    const Expr neg = (u >> (bits - 1)) != cast(UInt(32, lanes), 0);
    const Expr key = select(neg, cast(i32, -1) - mag, mag);
    return select(mag > cast(i32, inf_bits), cast(i32, 0x7fffffff), key);
}

// The magnitude of a stored value, its bits less the sign, as an int32: above
// order_key_pos_inf(t) exactly for a NaN, equal to it for an inf.
inline Halide::Expr magnitude(const Halide::Expr &stored) {
    using namespace Halide;
    const int bits = stored.type().bits(), lanes = stored.type().lanes();
    const Expr u = cast(Int(32, lanes), reinterpret(UInt(bits, lanes), stored));
    return u & cast(Int(32, lanes), bits == 32 ? 0x7fffffff : 0x7fff);
}

// The key of +inf and of -inf of storage type `t`.
inline int order_key_pos_inf(const Halide::Type &t) {
    return t == Halide::Float(32) ? 0x7f800000 : t == Halide::Float(16) ? 0x7c00 : 0x7f80;
}
inline int order_key_neg_inf(const Halide::Type &t) {
    return ~order_key_pos_inf(t);
}

// The stored value (of storage type `t`) whose order_key is `key` (not a NaN's).
inline Halide::Expr from_order_key(const Halide::Expr &key, const Halide::Type &t) {
    using namespace Halide;
    const int lanes = key.type().lanes();
    const int mag_mask = t.bits() == 32 ? 0x7fffffff : 0x7fff;
    const Expr b = key ^ ((key >> 31) & mag_mask);
    return reinterpret(t.with_lanes(lanes), cast(Int(t.bits(), lanes), b));
}

}  // namespace fuselab
