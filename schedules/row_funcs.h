// Each row pipeline described for rows_forms.h: which Funcs its CUDA forms place. Declares the
// buffers' 16-byte alignment (rows_common.h: align_buffers) as it goes.
#pragma once

#include "layernorm.h"
#include "rmsnorm_residual.h"
#include "rows_chunked.h"
#include "rows_forms.h"
#include "softmax.h"

namespace fuselab::rows {

// The padding of g's rows (row_pad.h), where its row_pad params ask for it.
template <typename G>
RowFuncs::Padding row_padding(const G &g) {
    if (g.row_pad <= 0) return {};
    return {g.r.x.extent(), g.row_pad, g.row_pad_unit};
}

// softmax: the max, then the sum of exp(x - max); the staged row is x.
inline RowFuncs row_funcs(Softmax &g, bool staged) {
    align_buffers(g.x, g.out);
    const int V = vec_elems(g.x.type());
    return {g.out,
            g.i,
            g.row,
            g.r.x,
            {g.mx, g.sum},
            staged ? g.x.in() : Func(),
            Func(),
            g.x.type(),
            g.x.dim(0).extent(),
            aligned_rows(V, g.x, g.out),
            row_padding(g),
            {}};
}

// rmsnorm_residual: the sum of squares of h = x + residual; the staged row is h (read from x and
// residual once), written out as the second output by the output's pass.
inline RowFuncs row_funcs(RmsnormResidual &g, bool /*staged*/) {
    align_buffers(g.x, g.residual, g.w, g.out, g.h);
    const int V = vec_elems(g.x.type());
    return {g.out,
            g.i,
            g.row,
            g.r.x,
            {g.sumsq},
            g.hs,
            g.h,
            g.x.type(),
            g.x.dim(0).extent(),
            aligned_rows(V, g.x, g.residual, g.out, g.h),
            row_padding(g),
            {}};
}

// layernorm: the sum (of x less its first element), then the sum of squares about the mean; the
// staged row is x. The output's mean and 1 / std once a thread in the block forms
// (hoist_row_values): 1.03 to 1.25x over the block forms at N = 256 to 65536 in 16-bit types
// (H100, s37 g2/ and g3/: ab_rows_g3.txt). rmsnorm_residual's 1 / std stays where the output
// reads it: hoisted, its block_row_4k (whose output is computed with h's) ran 0.84 to 1.07x
// (g2/). softmax's 1 / sum, one reciprocal, gained nothing measurable hoisted (g2/ against g3/).
inline RowFuncs row_funcs(Layernorm &g, bool staged) {
    align_buffers(g.x, g.w, g.b, g.out);
    const int V = vec_elems(g.x.type());
    return {g.out,
            g.i,
            g.row,
            g.r.x,
            {g.sum, g.sumsq},
            staged ? g.x.in() : Func(),
            Func(),
            g.x.type(),
            g.x.dim(0).extent(),
            aligned_rows(V, g.x, g.out),
            row_padding(g),
            {{g.rstd, Func()}, {g.mean, g.xc}}};
}

// The chunked forms (rows_chunked.h): which Funcs each kernel computes. The generator must have
// been built with chunk_bytes > 0 (the strategy's `params:` tag).
template <typename G>
void require_chunked(const G &g, const char *pipeline) {
    if (g.chunk_bytes <= 0) {
        throw CompileError(std::string(pipeline) +
                           ": a chunked strategy needs the generator param chunk_bytes > 0");
    }
}

inline ChunkFuncs chunk_funcs(Softmax &g) {
    require_chunked(g, "softmax");
    align_buffers(g.x, g.out);
    const Type t = g.x.type();
    return {g.part,
            g.c,
            g.row,
            g.rk.x,
            {g.cm, g.cs},
            g.out,
            g.i,
            g.q.x,
            {g.mx, g.sum},
            g.rs,
            Func(),
            t,
            g.x.dim(0).extent(),
            aligned_rows(vec_elems(t), g.x, g.out),
            g.chunk_bytes / t.bytes()};
}

inline ChunkFuncs chunk_funcs(RmsnormResidual &g) {
    require_chunked(g, "rmsnorm_residual");
    align_buffers(g.x, g.residual, g.w, g.out, g.h);
    const Type t = g.x.type();
    // part is itself the chunk's reduction (part_reduces).
    return {g.part,
            g.c,
            g.row,
            g.rk.x,
            {},
            g.out,
            g.i,
            g.q.x,
            {g.sumsq},
            g.rstd,
            g.h,
            t,
            g.x.dim(0).extent(),
            aligned_rows(vec_elems(t), g.x, g.residual, g.out, g.h),
            g.chunk_bytes / t.bytes(),
            true};
}

inline ChunkFuncs chunk_funcs(Layernorm &g) {
    require_chunked(g, "layernorm");
    align_buffers(g.x, g.w, g.b, g.out);
    const Type t = g.x.type();
    return {g.part,
            g.c,
            g.row,
            g.rk.x,
            {g.csum, g.csumsq},
            g.out,
            g.i,
            g.q.x,
            {g.sum, g.sumsq},
            g.rs,
            Func(),
            t,
            g.x.dim(0).extent(),
            aligned_rows(vec_elems(t), g.x, g.out),
            g.chunk_bytes / t.bytes()};
}

// The pipeline `g` in the chunked form on CUDA, T threads a block.
template <typename G>
void gpu_chunked_rows(G &g, int T, const Halide::Target &target) {
    gpu_chunked_rows(g, chunk_funcs(g), T, target);
}

// The pipeline `g` in `form` on CUDA.
template <typename G>
void gpu_rows(G &g, const Form &form, const Halide::Target &target) {
    gpu_rows(g, row_funcs(g, form.staged), form, target);
}

}  // namespace fuselab::rows
