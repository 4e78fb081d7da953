#include "layernorm.h"

namespace fuselab {

void Layernorm::generate() {
    using namespace Halide;
    const Target tg = get_target();
    const Expr n = x.dim(0).extent();
    r = RDom(0, n, "r");
    // float16 on CUDA: the hardware's conversions on rows of whole aligned vectors (storage.h).
    const Expr aligned = rows_aligned(16 / x.type().bytes(), x, out);

    xf(i, row) = widen(x(i, row), tg, aligned);
    shift(row) = xf(0, row);
    sum(row) = 0.0f;
    sum(row) += strict_float(xf(r, row) - shift(row));
    mean(row) = sum(row) / cast<float>(n);
    // strict_float: in this order (LLVM's reassociation would round x0 + mean to float32 first).
    xc(i, row) = strict_float((xf(i, row) - shift(row)) - mean(row));
    sumsq(row) = 0.0f;
    sumsq(row) += xc(r, row) * xc(r, row);
    rstd(row) = 1.0f / sqrt(sumsq(row) / cast<float>(n) + 1e-5f);
    out(i, row) =
        narrow(xc(i, row) * rstd(row) * widen(w(i), tg, aligned) + widen(b(i), tg, aligned),
               out.type(), tg, aligned);

    // Every buffer starts at 0; out has x's extents, w and b have N elements (a wrong extent is
    // refused, not read past).
    x.dim(0).set_min(0);
    x.dim(1).set_min(0);
    w.dim(0).set_bounds(0, n);
    b.dim(0).set_bounds(0, n);
    out.dim(0).set_bounds(0, n);
    out.dim(1).set_bounds(0, x.dim(1).extent());

    // Estimates: the default GPU size, N = 4096, M = 16384.
    x.set_estimates({{0, 4096}, {0, 16384}});
    w.set_estimates({{0, 4096}});
    b.set_estimates({{0, 4096}});
    out.set_estimates({{0, 4096}, {0, 16384}});
}

}  // namespace fuselab

HALIDE_REGISTER_GENERATOR(fuselab::Layernorm, layernorm)
