// rmsnorm_residual (issue 23): the residual add and RMSNorm of each row, fused.
//   h = round_to_type(x + residual)    (an output: the residual stream, torch's x + residual)
//   out = w * h / sqrt(mean(h^2) + 1e-6)       (h as rounded, widened)
// The math in float32 whatever the storage type (generators/storage.h). x, residual, out and h
// are N x M (dimension 0 the row), w has N elements.
#pragma once

#include "chunks.h"
#include "fuselab/identity_inits.h"
#include "fuselab/schedule_registry.h"
#include "storage.h"

namespace fuselab {

class RmsnormResidual : public Halide::Generator<RmsnormResidual> {
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

    Input<Buffer<void, 2>> x{"x"};
    Input<Buffer<void, 2>> residual{"residual"};
    Input<Buffer<void, 1>> w{"w"};
    Output<Buffer<void, 2>> out{"out"};
    Output<Buffer<void, 2>> h{"h"};

    Var i{"i"}, row{"row"};
    RDom r;               // one row: r in [0, N)
    Func hs{"hs"};        // x + residual rounded to the storage type (h's value; out and h read it,
                          // so that the two outputs can be computed together: compute_with)
    Func hf{"hf"};        // hs widened to float32
    Func sumsq{"sumsq"};  // sumsq(row): the row's sum of hf^2 (a reduction over r)
    Func rstd{"rstd"};    // 1 / sqrt(sumsq / N + 1e-6)
    // The chunked form only (chunk_bytes > 0): sumsq sums the chunks' partials.
    // The chunk. Named as i: the chunks' kernel also computes h, and Halide joins the two loop
    // nests on CUDA only where their block dimensions carry the same name (rows_chunked.h).
    Var c{"i"};
    RDom rk;            // one chunk: C elements from RowChunks::start(c)
    RDom q;             // a row's chunks
    Func part{"part"};  // part(c, row): the chunk's sum of hf^2 over the elements it owns

    void configure() {
        const Halide::Type t = storage_type(dtype);
        x.set_type(t);
        residual.set_type(t);
        w.set_type(t);
        out.set_type(t);
        h.set_type(t);
    }
    void generate();
    void schedule() {
        apply_schedule(*this, schedule_name, get_target());
        identity_inits(*this, get_target());
    }
};

}  // namespace fuselab
