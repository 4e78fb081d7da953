#include "rmsnorm_residual.h"

#include "math.h"
#include "row_pad.h"

namespace fuselab {

void RmsnormResidual::generate() {
    using namespace Halide;
    const Target tg = get_target();
    const Expr n = x.dim(0).extent();
    // float16 on CUDA: the hardware's conversions on rows of whole aligned vectors (storage.h).
    const Expr aligned = rows_aligned(16 / x.type().bytes(), x, residual, out, h);
    // row_pad: the statistic over the padded row, the elements past n masked (row_pad.h).
    if (row_pad > 0 && (chunk_bytes > 0 || !tg.has_gpu_feature())) {
        throw CompileError("rmsnorm_residual: row_pad is for CUDA's unchunked forms");
    }
    r = RDom(0, row_pad > 0 ? padded_extent(n, row_pad_unit, row_pad) : n, "r");
    const Expr xi = row_pad > 0 ? padded_index(i, n, 16 / x.type().bytes(), aligned) : Expr(i);

    hs(i, row) = narrow(widen(x(i, row), tg, aligned) + widen(residual(i, row), tg, aligned),
                        h.type(), tg, aligned);
    hf(i, row) = widen(hs(xi, row), tg, aligned);
    sumsq(row) = 0.0f;
    if (chunk_bytes > 0) {
        // The chunked form (chunks.h), CUDA only: each chunk's sum of squares over the elements
        // it owns, then the row's sum of the chunks'. The chunks' kernel also writes h (the
        // schedule joins the two: compute_with), so the output reads h, not x and residual: 5
        // row-bytes, where 6 with h written beside the output (s20; +9% in float32, s21 a/).
        if (!tg.has_gpu_feature()) {
            throw CompileError("rmsnorm_residual: the chunked form is CUDA's only");
        }
        // Rows in order: one block reads a chunk's x and residual for both part and h.
        const RowChunks ch{chunk_bytes / x.type().bytes(), n, x.dim(1).extent(), false};
        rk = ch.domain("rk");
        const Expr e = ch.start(c) + rk;
        part(c, row) = 0.0f;
        part(c, row) += select(ch.owns(c, e), hf(e, row) * hf(e, row), 0.0f);
        q = RDom(0, ch.count(), "q");
        sumsq(row) += part(q, row);
    } else {
        const Expr sq = hf(r, row) * hf(r, row);
        const Expr in_row = in_padded_row(r.x, n, 16 / x.type().bytes(), aligned);
        sumsq(row) += row_pad > 0 ? select(in_row, sq, 0.0f) : sq;
    }
    rstd(row) = fast_rsqrt ? rsqrt_for(div_for(sumsq(row), cast<float>(n), tg) + 1e-6f, tg)
                           : 1.0f / sqrt(sumsq(row) / cast<float>(n) + 1e-6f);
    h(i, row) = hs(i, row);
    // The chunked form's output reads h back where the chunks' kernel stored it.
    const Expr hv = chunk_bytes > 0 ? widen(h(i, row), tg, aligned) : hf(i, row);
    out(i, row) = narrow(hv * rstd(row) * widen(w(i), tg, aligned), out.type(), tg, aligned);

    // Every buffer starts at 0; residual, out and h have x's extents, w has N elements (a wrong
    // extent is refused, not read past).
    x.dim(0).set_min(0);
    x.dim(1).set_min(0);
    residual.dim(0).set_bounds(0, n);
    residual.dim(1).set_bounds(0, x.dim(1).extent());
    w.dim(0).set_bounds(0, n);
    out.dim(0).set_bounds(0, n);
    out.dim(1).set_bounds(0, x.dim(1).extent());
    h.dim(0).set_bounds(0, n);
    h.dim(1).set_bounds(0, x.dim(1).extent());

    // Estimates: the default GPU size, N = 4096, M = 16384.
    x.set_estimates({{0, 4096}, {0, 16384}});
    residual.set_estimates({{0, 4096}, {0, 16384}});
    w.set_estimates({{0, 4096}});
    out.set_estimates({{0, 4096}, {0, 16384}});
    h.set_estimates({{0, 4096}, {0, 16384}});
}

}  // namespace fuselab

HALIDE_REGISTER_GENERATOR(fuselab::RmsnormResidual, rmsnorm_residual)
