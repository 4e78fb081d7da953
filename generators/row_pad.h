// Padded rows (the `row_pad` GeneratorParam of the row pipelines; CUDA's register form, issue 30):
// a row's statistics reduce over a domain of P elements, P the row length n rounded up to a rung
// of a ladder (256, 512, ... up to row_pad: kPadUnit), and every element
// of it is read in bounds: past n, a row re-reads its last vector (or, where the rows are not
// whole aligned vectors, its last element), and the statistics mask those elements with their
// identity (a select, not a branch). Triton's masked loads over BLOCK_SIZE = next_power_of_2(N)
// do the same. Why: with n known only at run time, every guarded step of a row held in registers
// put its load inside a branch, whose body then waited on it, so the steps' loads went out one
// after another (s22: warp_regs_1k bfloat16 ran 3.5 TB/s at N = 256, its exact specialization,
// and 1.0 at N = 280; results/rows_ncu.md). A strategy that specializes on each rung (rows_forms.h:
// gpu_warp_regs_rows) sees P as a constant there, so its loads are unconditional and unrolled.
// The block forms (rows_forms.h: gpu_padded_block_rows) pad to a ladder of their own (the
// strategy's row_pad and row_pad_unit params) and, past it, to a multiple of the unit, which is
// a whole number of their threads' steps: no step of a statistic is guarded there either.
#pragma once

#include "Halide.h"

namespace fuselab {

// The register form's ladder step (the default of the row_pad_unit param): 256 elements, one
// 16-byte vector a lane of a warp in 16-bit types, two in float32 (a step of 128 there made 8
// rungs a side, and rmsnorm_residual's float32 generator, whose two outputs are computed
// together, ran past 10 minutes; 4 take seconds).
constexpr int kPadUnit = 256;

// P for a row of n elements: the smallest multiple of `unit` at or above n, where that is at
// most `limit`, spelled as a ladder of selects, so that a specialization on n <= k * unit folds P
// to the constant k * unit; past the limit, n rounded up to `unit`.
inline Halide::Expr padded_extent(const Halide::Expr &n, int unit, int limit) {
    using namespace Halide;
    Expr p = ((n + (unit - 1)) / unit) * unit;
    for (int k = limit / unit; k >= 1; k--) p = select(n <= k * unit, k * unit, p);
    return p;
}

// The element of a row of n that position i of its padded domain reads: i itself where i < n;
// past n, the row's last V-element vector again where `aligned` (every row whole aligned
// vectors: the index stays a dense, aligned ramp of V lanes), or its last element elsewhere. In
// [0, n) for any i >= 0, where bounds inference sees which of the two it is: a strategy
// specializes on `aligned` and on `!aligned` (a select of both would be bounded by their union,
// which reaches past a row shorter than V).
inline Halide::Expr padded_index(const Halide::Expr &i, const Halide::Expr &n, int V,
                                 const Halide::Expr &aligned) {
    using namespace Halide;
    const Expr by_vector = min(i, n - V + i % V);
    const Expr by_element = min(i, n - 1);
    return select(aligned, by_vector, by_element);
}

// Whether position i of a padded domain is one of the row's n elements, the statistics' mask.
// Where `aligned` (n a multiple of V), a whole V-element vector is in or out, so the test is
// made on its first element: the simplifier folds it to one scalar compare a vector, where
// i < n itself was one compare an element, whose predicates a two-statistic kernel kept across
// the passes (layernorm bfloat16 block_row_4k at N <= 4096: an ISETP, a P2R and its restore
// beside each element's select, in each pass).
inline Halide::Expr in_padded_row(const Halide::Expr &i, const Halide::Expr &n, int V,
                                  const Halide::Expr &aligned) {
    using namespace Halide;
    return select(aligned, i - i % V < n, i < n);
}

}  // namespace fuselab
