#include "rmsnorm_residual.h"

namespace fuselab {

void RmsnormResidual::generate() {
    using namespace Halide;
    const Target tg = get_target();
    const Expr n = x.dim(0).extent();
    r = RDom(0, n, "r");
    // float16 on CUDA: the hardware's conversions on rows of whole aligned vectors (storage.h).
    const Expr aligned = rows_aligned(16 / x.type().bytes(), x, residual, out, h);

    hs(i, row) = narrow(widen(x(i, row), tg, aligned) + widen(residual(i, row), tg, aligned),
                        h.type(), tg, aligned);
    hf(i, row) = widen(hs(i, row), tg, aligned);
    sumsq(row) = 0.0f;
    if (chunk_bytes > 0) {
        // The chunked form (chunks.h), CUDA only: each chunk's sum of squares over the elements
        // it owns, then the row's sum of the chunks'. The output's pass reads x and residual
        // again (h is an output: Halide computes it at the root, apart from the chunks' kernel).
        if (!tg.has_gpu_feature()) {
            throw CompileError("rmsnorm_residual: the chunked form is CUDA's only");
        }
        const RowChunks ch{chunk_bytes / x.type().bytes(), n, x.dim(1).extent(),
                           chunk_rows_reversed};
        const Expr xr = ch.row_of(row);  // the row of x that part's row holds
        rk = ch.domain("rk");
        const Expr e = ch.start(c) + rk;
        part(c, row) = 0.0f;
        part(c, row) += select(ch.owns(c, e), hf(e, xr) * hf(e, xr), 0.0f);
        q = RDom(0, ch.count(), "q");
        sumsq(row) += part(q, ch.row_of(row));
    } else {
        sumsq(row) += hf(r, row) * hf(r, row);
    }
    rstd(row) = 1.0f / sqrt(sumsq(row) / cast<float>(n) + 1e-6f);
    h(i, row) = hs(i, row);
    out(i, row) =
        narrow(hf(i, row) * rstd(row) * widen(w(i), tg, aligned), out.type(), tg, aligned);

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
