#include "softmax.h"

#include <cstdint>
#include <limits>

#include "math.h"
#include "row_pad.h"

namespace fuselab {

void Softmax::generate() {
    using namespace Halide;
    const Target tg = get_target();
    const Type t = x.type();
    const Expr n = x.dim(0).extent();
    // The route for this algorithm's conversions only (they are built here, in generate()).
    const struct Restore {
        HalfRoute saved = gpu_half_route;
        ~Restore() { gpu_half_route = saved; }
    } restore;
    const std::string route = half_route;
    if (route != "guarded" && route != "widen_native" && route != "aligned") {
        throw CompileError("softmax: half_route is guarded, widen_native or aligned, not " + route);
    }
    if (gpu_half_route == HalfRoute::Guarded) {  // row_search's --half, where set, wins
        gpu_half_route = route == "widen_native" ? HalfRoute::WidenNative
                         : route == "aligned"    ? HalfRoute::Aligned
                                                 : HalfRoute::Guarded;
    }
    // float16 on CUDA: the conversions by the rows' alignment (storage.h).
    const Expr aligned = rows_aligned(16 / t.bytes(), x, out);
    // row_pad: the statistics over the padded row, the elements past n masked (row_pad.h).
    const int V = 16 / t.bytes();
    r = RDom(0, row_pad > 0 ? padded_extent(n, row_pad_unit, row_pad) : n, "r");
    const auto in_row = [&](const Expr &e, const Expr &identity) {
        return row_pad > 0 ? select(in_padded_row(r.x, n, V, aligned), e, identity) : e;
    };
    const Expr xi = row_pad > 0 ? padded_index(i, n, V, aligned) : Expr(i);

    xf(i, row) = widen(x(xi, row), tg, aligned);
    if (row_pad > 0 && (chunk_bytes > 0 || !tg.has_gpu_feature())) {
        throw CompileError("softmax: row_pad is for CUDA's unchunked forms");
    }
    if (chunk_bytes > 0) {
        define_chunked();
        return;
    }
    // The maximum first, so that exp never overflows (x = 1e4 everywhere gives 1/N each).
    // torch's answer is NaN for the whole row where the row holds a NaN, or a +inf (inf - inf),
    // or is -inf everywhere (-inf - -inf); every other row's x - mx lies in [-inf, 0].
    if (tg.has_gpu_feature()) {
        // CUDA: those rows' sums become NaN by themselves: PTX's max may skip a NaN (and does,
        // as max.f32: float_max_num), but the NaN element's x - mx is NaN, ex2.approx keeps it,
        // and so does the sum; every other row's sum is in [1, N]. So the row is tested once, on
        // 1 / sum's bits (bad, below), instead of each output element on its own.
        mx(row) = -std::numeric_limits<float>::infinity();
        mx(row) = max(mx(row), in_row(xf(r, row), -std::numeric_limits<float>::infinity()));
        mxf(row) = mx(row);
    } else {
        // x86: Halide's vector exp returns 0 for a NaN, so the row's NaN is made explicit. The
        // maximum is taken as floats (one vmaxps an element) beside the largest magnitude of the
        // stored bits, an integer max that sees a NaN whatever the float max did with it (x86's
        // max may drop a NaN; LLVM's no-NaN flags let it fold a float NaN test away, as it did
        // for a float16 row). A row with a NaN has a magnitude above inf's; a row with +inf, or
        // -inf everywhere, has an infinite float max, tested on its bits. The earlier form, a max
        // of integer keys of the bits (storage.h: order_key), took 5 vector operations an
        // element here against 3.
        mx(row) = Tuple(-std::numeric_limits<float>::infinity(), 0);
        mx(row) = Tuple(max(mx(row)[0], xf(r, row)), max(mx(row)[1], magnitude(x(r, row))));
        mxf(row) = mx(row)[0];
        const Expr mxbits = reinterpret<uint32_t>(mxf(row)) & cast<uint32_t>(0x7fffffff);
        bad(row) = mx(row)[1] > order_key_pos_inf(t) || mxbits == cast<uint32_t>(0x7f800000);
    }
    // CUDA: the hardware exponential (math.h: exp_for, ex2.approx of d log2(e), as Triton's exp;
    // Halide's exp is a 25-instruction polynomial there, which would make the 16-bit rows
    // issue-bound): 2^-22 relative near d = 0, where the row's largest outputs are, |d| 6e-8
    // further out; NaN stays NaN, -inf gives 0. The CPU: math.h's exp_nonpositive_cpu (all
    // vector instructions, 4.0e-7 relative at most; d is never above 0), exactly 0 below -88.2
    // (and so for -inf), where e^d is not a normal float.
    const Expr d = xf(i, row) - mxf(row);
    if (tg.has_gpu_feature()) {
        ex(i, row) = exp_for(d, tg);
    } else {
        ex(i, row) = exp_nonpositive_cpu(d);
    }
    sum(row) = 0.0f;
    sum(row) += in_row(ex(r, row), 0.0f);
    if (tg.has_gpu_feature()) {
        // The hardware reciprocal (div_for): the IEEE one's slow-path test and refinement were 8
        // instructions a row's lane, 1 an element of a row of 256 in the register form.
        inv(row) = div_for(1.0f, sum(row), tg);
    } else {
        // x86: a bad row's 1 / sum is made NaN once a row, on its bits, so that every output,
        // ex * inv, is NaN by itself (x86's multiply keeps a NaN operand; narrow keeps a NaN),
        // instead of a select an element (one of the output loop's two vector operations).
        inv(row) = reinterpret<float>(
            select(bad(row), cast<uint32_t>(0x7fc00000), reinterpret<uint32_t>(1.0f / sum(row))));
    }
    // CUDA: a row whose sum is a number has no NaN output (ex in [0, 1], inv in [1/N, 1]), so
    // bfloat16, which tests for a NaN by hand, tests 1 / sum once (what the output reads); float32
    // and float16 (by the hardware's conversion or float_to_half_bits) keep a NaN by themselves.
    const bool gpu = tg.has_gpu_feature();
    if (gpu && t == UInt(16)) {
        const Expr bits = reinterpret<uint32_t>(inv(row)) & cast<uint32_t>(0x7fffffff);
        bad(row) = bits > cast<uint32_t>(0x7f800000);
    } else if (gpu) {
        bad(row) = cast<bool>(false);
    }
    out(i, row) =
        gpu ? narrow_or_nan(ex(i, row) * inv(row), bad(row), out.type(), tg, aligned, true)
            : narrow(ex(i, row) * inv(row), out.type(), tg, aligned);

    constrain();
}

void Softmax::constrain() {
    const Halide::Expr n = x.dim(0).extent();
    // Every buffer starts at 0; out has x's extents.
    x.dim(0).set_min(0);
    x.dim(1).set_min(0);
    out.dim(0).set_bounds(0, n);
    out.dim(1).set_bounds(0, x.dim(1).extent());

    // Estimates: the default GPU size, N = 4096, M = 16384.
    x.set_estimates({{0, 4096}, {0, 16384}});
    out.set_estimates({{0, 4096}, {0, 16384}});
}

// The chunked form (chunks.h), CUDA only. Each chunk's max cm and its sum cs of exp(x - cm)
// (a chunk of -inf alone sums about 0 instead: exp(-inf - -inf) is NaN), then each row's max
// and its sum, each chunk's sum scaled by exp(cm - max). A NaN, or a +inf, makes its chunk's
// sum NaN, and so the row's; a row of -inf alone sums 0. Both rows are NaN (bad), as torch's.
// Every test is on the bits (storage.h: storage_bits), which LLVM's no-NaN and no-inf flags
// cannot fold away.
void Softmax::define_chunked() {
    using namespace Halide;
    const Target tg = get_target();
    if (!tg.has_gpu_feature()) throw CompileError("softmax: the chunked form is CUDA's only");
    const Type t = x.type();
    const Expr n = x.dim(0).extent();
    const Expr aligned = rows_aligned(16 / t.bytes(), x, out);
    const RowChunks ch{chunk_bytes / t.bytes(), n, x.dim(1).extent(), chunk_rows_reversed};
    const Expr xr = ch.row_of(row);  // the row of x that part's row holds
    const Expr neg_inf_bits = Halide::Internal::UIntImm::make(Halide::UInt(32), 0xff800000u);
    rk = ch.domain("rk");
    const Expr e = ch.start(c) + rk;
    cm(c, row) = -std::numeric_limits<float>::infinity();
    cm(c, row) = max(cm(c, row), xf(e, xr));
    const Expr ref = select(storage_bits(cm(c, row)) == neg_inf_bits, 0.0f, cm(c, row));
    cs(c, row) = 0.0f;
    cs(c, row) += select(ch.owns(c, e), exp_for(xf(e, xr) - ref, tg), 0.0f);
    part(c, row) = Tuple(cm(c, row), cs(c, row));

    q = RDom(0, ch.count(), "q");
    mx(row) = -std::numeric_limits<float>::infinity();
    const Expr pr = ch.row_of(row);  // the row of part that holds this row
    mx(row) = max(mx(row), part(q, pr)[0]);
    const Expr pm = part(q, pr)[0], ps = part(q, pr)[1];
    const Expr pref = select(storage_bits(pm) == neg_inf_bits, 0.0f, pm);
    sum(row) = 0.0f;
    sum(row) +=
        select(storage_bits(ps) == cast<uint32_t>(0), 0.0f, ps * exp_for(pref - mx(row), tg));
    // The row's (max, 1 / sum), computed once a row in a kernel of its own (rows_chunked.h), so
    // that the output's kernel only streams.
    rs(row) = Tuple(mx(row), 1.0f / sum(row));
    mxf(row) = rs(row)[0];
    inv(row) = rs(row)[1];
    // A sum below 1 (0: -inf alone), or NaN: 1 / sum above 1, or NaN; any other row's sum is in
    // [1, N].
    bad(row) = (storage_bits(inv(row)) & cast<uint32_t>(0x7fffffff)) > cast<uint32_t>(0x3f800000);
    ex(i, row) = exp_for(xf(i, row) - mxf(row), tg);
    out(i, row) = narrow_or_nan(ex(i, row) * inv(row), bad(row), out.type(), tg, aligned, true);
    constrain();
}

}  // namespace fuselab

HALIDE_REGISTER_GENERATOR(fuselab::Softmax, softmax)
