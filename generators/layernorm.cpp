#include "layernorm.h"

#include "math.h"
#include "row_pad.h"

namespace fuselab {

void Layernorm::generate() {
    using namespace Halide;
    const Target tg = get_target();
    const Expr n = x.dim(0).extent();
    // float16 on CUDA: the hardware's conversions on rows of whole aligned vectors (storage.h).
    const Expr aligned = rows_aligned(16 / x.type().bytes(), x, out);
    // row_pad: the statistics over the padded row, the elements past n masked (row_pad.h).
    const int V = 16 / x.type().bytes();
    if (row_pad > 0 && (chunk_bytes > 0 || !tg.has_gpu_feature())) {
        throw CompileError("layernorm: row_pad is for CUDA's unchunked forms");
    }
    r = RDom(0, row_pad > 0 ? padded_extent(n, row_pad_unit, row_pad) : n, "r");
    const auto in_row = [&](const Expr &e) {
        return row_pad > 0 ? select(in_padded_row(r.x, n, V, aligned), e, 0.0f) : e;
    };
    const Expr xi = row_pad > 0 ? padded_index(i, n, V, aligned) : Expr(i);

    xf(i, row) = widen(x(xi, row), tg, aligned);
    shift(row) = xf(0, row);
    if (chunk_bytes > 0) {
        define_chunked();
        return;
    }
    sum(row) = 0.0f;
    sum(row) += in_row(strict_float(xf(r, row) - shift(row)));
    mean(row) = sum(row) / cast<float>(n);
    // strict_float: in this order (LLVM's reassociation would round x0 + mean to float32 first).
    xc(i, row) = strict_float((xf(i, row) - shift(row)) - mean(row));
    sumsq(row) = 0.0f;
    sumsq(row) += in_row(xc(r, row) * xc(r, row));
    define_output();
}

// 1 / sqrt(var + 1e-5) of a row whose sum of squares about its mean is `ss` (fast_rsqrt: by the
// hardware's rsqrt and division on CUDA).
Halide::Expr Layernorm::inv_std(const Halide::Expr &ss) const {
    const Halide::Expr n = Halide::cast<float>(x.dim(0).extent());
    if (!fast_rsqrt) return 1.0f / Halide::sqrt(ss / n + 1e-5f);
    const Halide::Target tg = get_target();
    return rsqrt_for(div_for(ss, n, tg) + 1e-5f, tg);
}

// rstd (where the chunked form has not defined it) and the output, from xc and sumsq.
void Layernorm::define_output() {
    using namespace Halide;
    const Target tg = get_target();
    const Expr aligned = rows_aligned(16 / x.type().bytes(), x, out);
    if (!rstd.defined()) rstd(row) = inv_std(sumsq(row));
    out(i, row) =
        narrow(xc(i, row) * rstd(row) * widen(w(i), tg, aligned) + widen(b(i), tg, aligned),
               out.type(), tg, aligned);
    constrain();
}

// The chunked form (chunks.h), CUDA only: each chunk's sum about its own first element (a shift,
// as the row's), its mean, and its sum of squares about that mean, both over the elements it
// owns; then each row's sum about x0 from the chunks' means, and its sum of squares by Chan's
// combination: the chunks' own plus each chunk's count times its mean's square distance from
// the row's. Every chunk stays two-pass, so a row of 1e4 + noise keeps its noise's digits.
void Layernorm::define_chunked() {
    using namespace Halide;
    const Target tg = get_target();
    if (!tg.has_gpu_feature()) throw CompileError("layernorm: the chunked form is CUDA's only");
    const Expr n = x.dim(0).extent();
    const RowChunks ch{chunk_bytes / x.type().bytes(), n, x.dim(1).extent(), chunk_rows_reversed};
    const Expr xr = ch.row_of(row);  // the row of x that part's row holds
    rk = ch.domain("rk");
    const Expr e = ch.start(c) + rk;
    const Expr first = xf(c * ch.size, xr);
    csum(c, row) = 0.0f;
    csum(c, row) += select(ch.owns(c, e), strict_float(xf(e, xr) - first), 0.0f);
    const Expr cmean = csum(c, row) / ch.owned(c);
    const Expr dc = strict_float((xf(e, xr) - first) - cmean);
    csumsq(c, row) = 0.0f;
    csumsq(c, row) += select(ch.owns(c, e), dc * dc, 0.0f);
    part(c, row) = Tuple(strict_float((first - shift(xr)) + cmean), csumsq(c, row));

    q = RDom(0, ch.count(), "q");
    sum(row) = 0.0f;
    const Expr pr = ch.row_of(row);  // the row of part that holds this row
    sum(row) += ch.owned(q) * part(q, pr)[0];
    mean(row) = sum(row) / cast<float>(n);
    const Expr dm = part(q, pr)[0] - mean(row);
    sumsq(row) = 0.0f;
    sumsq(row) += part(q, pr)[1] + ch.owned(q) * dm * dm;
    // The row's (mean, rstd), computed once a row in a kernel of its own (rows_chunked.h), so
    // that the output's kernel only streams.
    rs(row) = Tuple(mean(row), inv_std(sumsq(row)));
    rstd(row) = rs(row)[1];
    xc(i, row) = strict_float((xf(i, row) - shift(row)) - rs(row)[0]);
    define_output();
}

void Layernorm::constrain() {
    const Halide::Expr n = x.dim(0).extent();

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
