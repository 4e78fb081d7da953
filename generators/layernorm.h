// layernorm over each row (issue 23): out = w * (x - mean) / sqrt(var + 1e-5) + b, var biased,
// in two passes (the mean, then the mean of (x - mean)^2: E[x^2] - E[x]^2 loses every digit on
// rows of magnitude 1e4), both about the row's first element x0 (a shift, exact for any row:
// x - x0 is exact where x and x0 are within a factor of 2, so a row of all-equal values gives
// x - mean = 0 exactly, and a row 1e4 + noise keeps its noise's digits, which x - (mean rounded
// to float32) would not). The math in float32 whatever the storage type (generators/storage.h).
// x and out are N x M (dimension 0 the row), w and b have N elements.
#pragma once

#include "chunks.h"
#include "fuselab/identity_inits.h"
#include "fuselab/schedule_registry.h"
#include "storage.h"

namespace fuselab {

class Layernorm : public Halide::Generator<Layernorm> {
public:
    GeneratorParam<std::string> schedule_name{"schedule", "block_row"};
    GeneratorParam<std::string> dtype{"dtype", "float32"};  // float32, bfloat16 or float16
    // > 0: the chunked form (CUDA; chunks.h): rows cut into chunks of this many bytes, one block
    // a chunk. Set by a strategy's `params:` tag (the chunked_row strategies).
    GeneratorParam<int> chunk_bytes{"chunk_bytes", 0};
    // > 0: the statistics reduce over the row padded to a rung of a ladder up to this many
    // elements, past it to a multiple of row_pad_unit, the elements past N masked (row_pad.h;
    // CUDA's unchunked forms: warp_regs_1k, the padded block forms).
    GeneratorParam<int> row_pad{"row_pad", 0};
    // The ladder's step, and the multiple that a longer padded row is (row_pad.h: kPadUnit).
    GeneratorParam<int> row_pad_unit{"row_pad_unit", 256};
    // CUDA: 1 / sqrt(mean + eps) by the hardware's rsqrt and division (math.h: rsqrt_for,
    // div_for) instead of IEEE's. Set by a strategy's `params:` tag where the statistic is
    // computed once a lane (warp_regs_1k): in the block forms, which recompute it in each chunk of
    // their output loop, the same change ran 0.59 to 0.96x (H100, s36: layernorm float16
    // block_row_wide, rmsnorm_residual block_row_4k; its registers went 83 -> 94 in float32).
    GeneratorParam<bool> fast_rsqrt{"fast_rsqrt", false};
    // The chunked form's first kernel takes the rows in reverse order (chunks.h).
    GeneratorParam<bool> chunk_rows_reversed{"chunk_rows_reversed", true};

    Input<Buffer<void, 2>> x{"x"};
    Input<Buffer<void, 1>> w{"w"};
    Input<Buffer<void, 1>> b{"b"};
    Output<Buffer<void, 2>> out{"out"};

    Var i{"i"}, row{"row"};
    RDom r;               // one row: r in [0, N)
    Func xf{"xf"};        // x widened to float32
    Func shift{"shift"};  // the row's first element, xf(0, row)
    Func sum{"sum"};      // sum(row): the row's sum of xf - shift (a reduction over r)
    Func mean{"mean"};    // sum / N: the row's mean less shift
    Func xc{"xc"};        // (xf - shift) - mean: x less the row's mean
    Func sumsq{"sumsq"};  // sumsq(row): the row's sum of xc^2 (a reduction over r)
    Func rstd{"rstd"};    // 1 / sqrt(sumsq / N + 1e-5)
    // The chunked form only (chunk_bytes > 0): sum and sumsq combine the chunks' partials (Chan's
    // parallel variance).
    Var c{"c"};             // the chunk
    RDom rk;                // one chunk: C elements from RowChunks::start(c)
    RDom q;                 // a row's chunks
    Func csum{"csum"};      // csum(c, row): the chunk's sum of x less its own first element
    Func csumsq{"csumsq"};  // csumsq(c, row): the chunk's sum of squares about its own mean
    Func part{"part"};      // part(c, row): (the chunk's mean less shift, csumsq), in memory
    Func rs{"rs"};          // rs(row) = (mean, rstd), in global memory

    void configure() {
        const Halide::Type t = storage_type(dtype);
        x.set_type(t);
        w.set_type(t);
        b.set_type(t);
        out.set_type(t);
    }
    void generate();
    void define_chunked();                               // generate()'s chunked form
    void define_output();                                // rstd and out, from xc and sumsq
    Halide::Expr inv_std(const Halide::Expr &ss) const;  // 1 / sqrt(ss / N + 1e-5)
    void constrain();                                    // the buffers' bounds and estimates
    void schedule() {
        apply_schedule(*this, schedule_name, get_target());
        identity_inits(*this, get_target());
    }
};

}  // namespace fuselab
