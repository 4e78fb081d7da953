// softmax over each row (issue 23): out = exp(x - max x) / sum exp(x - max x), the math in
// float32 whatever the storage type (generators/storage.h). x and out are N x M: dimension 0 is
// the row (N contiguous elements), dimension 1 the M rows.
#pragma once

#include "chunks.h"
#include "fuselab/identity_inits.h"
#include "fuselab/schedule_registry.h"
#include "fuselab/wide_accesses.h"
#include "storage.h"

namespace fuselab {

class Softmax : public Halide::Generator<Softmax> {
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
    // The chunked form's first kernel takes the rows in reverse order (chunks.h).
    GeneratorParam<bool> chunk_rows_reversed{"chunk_rows_reversed", true};
    // CUDA float16's conversions on rows that are not whole aligned vectors (storage.h:
    // HalfRoute, row_search's --half names): guarded (the default: both by the hardware),
    // widen_native (the rounding through the bits) or aligned (both through the bits, s25's).
    // Set by the register forms' `params:` tags, where the hardware's ran slower (s26 k/, m/, n/).
    GeneratorParam<std::string> half_route{"half_route", "guarded"};

    Input<Buffer<void, 2>> x{"x"};
    Output<Buffer<void, 2>> out{"out"};

    Var i{"i"}, row{"row"};
    RDom r;           // one row: r in [0, N)
    Func xf{"xf"};    // x widened to float32
    Func mx{"mx"};    // mx(row): the row's maximum (a reduction over r; on the CPU a pair: the
                      // float max and the largest magnitude of the stored bits, see softmax.cpp)
    Func mxf{"mxf"};  // the row's maximum, float32
    Func bad{"bad"};  // the row's outputs are NaN (CPU: a NaN or +inf in it, or all -inf)
    Func ex{"ex"};    // exp(xf - mx)
    Func sum{"sum"};  // sum(row): the row's sum of ex (a reduction over r)
    Func inv{"inv"};  // 1 / sum
    // The chunked form only (chunk_bytes > 0): mx and sum combine the chunks' partials.
    Var c{"c"};         // the chunk
    RDom rk;            // one chunk: C elements from RowChunks::start(c)
    RDom q;             // a row's chunks
    Func cm{"cm"};      // cm(c, row): the chunk's maximum
    Func cs{"cs"};      // cs(c, row): the chunk's sum of exp(x - cm), over the elements it owns
    Func part{"part"};  // part(c, row) = (cm, cs), in global memory
    Func rs{"rs"};      // rs(row) = (mx, 1 / sum), in global memory

    void configure() {
        x.set_type(storage_type(dtype));
        out.set_type(storage_type(dtype));
    }
    void generate();
    void define_chunked();  // generate()'s chunked form
    void constrain();       // the buffers' bounds and estimates
    // On CUDA the max may drop a NaN (generate(): the row's sum keeps it): max.f32.
    void schedule() {
        apply_schedule(*this, schedule_name, get_target());
        float_max_num(*this, get_target());
        identity_inits(*this, get_target());
    }
};

}  // namespace fuselab
