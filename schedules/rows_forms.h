// The CUDA forms of the row pipelines' fused strategies, over one description of each pipeline
// (RowFuncs: its output, its statistics in order, the stage that reads the row from memory, a
// second output) and the numbers that set a form's shape (Form). The strategy files name a form
// and its numbers; tools/row_search.cpp times the same forms over a grid of numbers on the GPU,
// which is how those numbers were chosen (results/rows_search.md).
//
//   block  one row a block of T threads (rows_common.h: gpu_block_rows, gpu_block_stat)
//   warp   one row a warp, R rows a block (gpu_warp_rows; the last statistic by shuffles)
//   staged (either form) the row read from DRAM once, into shared memory in its storage type
//          (16 bytes a thread a step); the statistics and the output read it there; shipped as
//          staged_row_2k and staged_row_8k, which declare their row limit (row_limit)
//   bucket (either form) the row cut by a constant B (rows_common.h: split_row), so that every
//          loop of a row of at most B elements has a constant extent, as Triton's kernels have
//          per power-of-two block; searched by gpu/bucket_search.sh, and shipped as
//          block_row_2k and block_row_4k (results/runs/2026-12-02-h200-s15)
//   exact  (a bucket's block form, Form::exact) rows of exactly k B elements (k = 1, 2, 4, ...),
//          aligned, in kernels of their own with N a constant: no mask, guard or division by N
//          (results/runs/2026-12-06-gpu-s39, g1/)
//   by_vector (a bucket's block form, one output, Form::by_vector) aligned rows' output and staging
//          cut by the 16-byte vector first, so that a step's tail guard is one test a vector
//          (block_cut_by_vector; results/runs/2026-12-06-gpu-s40, g1/)
//   registers (gpu_warp_regs_rows, below; the warp_regs strategies) one warp a row, the row's
//          pointwise stages in lane-striped registers of a constant size, every statistic by
//          shuffles inside the lanes of the one stage that reads it
//
// Rows too long for one block to hold or stream alone are the chunked form's
// (rows_chunked.h: the row cut into chunks over blocks, partials through global memory).
//
// Each form is specialized on its row length: where every thread of the row (block) or lane
// (warp) has a whole vector (N >= T V, or 32 V), Halide's simplifier drops the tail guards of the
// reductions' last steps, whose loads are then independent instead of a chain of branches; rows
// aligned to 16 bytes get 16-byte vectors; other rows load element by element.
#pragma once

#include <string>
#include <vector>

#include "fuselab/wide_accesses.h"
#include "row_pad.h"
#include "rows_common.h"

namespace fuselab::rows {

struct RowFuncs {
    Func out;                 // the row-wise output
    Var i, row;               // its loop variables
    RVar r;                   // the row's reduction variable
    std::vector<Func> stats;  // the row's statistics, each read by the ones after it and by out
    Func source;              // what a staged form keeps in shared memory: x.in(), or a stage
    Func second;              // a second output beside out (rmsnorm's h), or undefined
    Type type;                // the storage type
    Expr n;                   // the row's length
    Expr aligned;             // every row of every buffer starts on a 16-byte boundary
    // Where the pipeline pads its rows (its row_pad params, row_pad.h): the statistics' padded
    // extent P (undefined: no padding), the ladder's top, and its step (a longer row's P is a
    // multiple of the step).
    struct Padding {
        Expr padded;
        int pad = 0, unit = 0;
    } padding;
    // The output's per-row values (layernorm's mean and 1 / std), which each of the output's
    // steps, behind its own tail guard, recomputed (IEEE division and square root: about 35
    // instructions a step in layernorm). The block forms compute them once a thread
    // (hoist_row_values). `via`: the pointwise Func through which the output reads one
    // (layernorm's xc, which a statistic reads too), cloned for the output.
    struct RowValue {
        Func f, via;
    };
    std::vector<RowValue> row_values;
};

struct Form {
    enum Kind { Block, Warp } kind = Block;
    int threads = 256;     // block: T threads a row
    int rows = 8;          // warp: R rows (warps) a block
    int steps = 0;         // vectors a thread unrolls in the statistics' passes (0: rows_common's)
    int out_steps = 0;     // ... in the output's pass (0: rows_common's)
    bool staged = false;   // the row in shared memory
    int bucket = 0;        // rows cut by a constant B (rows_common.h: split_row), 0: by steps
    int staged_bytes = 0;  // staged: the bytes of rows a block holds at most (0: kStagedBytes)
    // The staged and padded block forms' rows that are not whole aligned vectors: in which types
    // their threads take adjacent elements (adjacent_row_stage), measured per form (s25 e1/).
    enum Adjacent { Never, Bits16, Always } adjacent = Bits16;
    // The block form's outputs (and a second output computed with the first) cut with the threads
    // over adjacent elements on every row, aligned or not (adjacent_row_stage): for rows that are
    // not whole aligned vectors, where a second output keeps the vector cut otherwise. The warp
    // form's puts its lanes over adjacent elements in the statistics' passes too
    // (gpu_adjacent_warp_rows).
    bool adjacent_out = false;
    // Rows of exactly k B elements (bucket B, or a padded form's step), aligned, for k = 1, 2,
    // 4, ... up to `exact`, specialized with N a constant: every mask and guard of the row, and the
    // division by N, fold away (the form's other kernels stay for every other N).
    int exact = 0;
    // The block form's aligned rows (one output) cut by the 16-byte vector first, in the output
    // and the staging: a step's tail guard is one test a vector (block_cut_by_vector).
    bool by_vector = false;
    std::string name() const {
        std::string s =
            kind == Block ? "block_t" + std::to_string(threads) : "warp_r" + std::to_string(rows);
        s += "_u" + std::to_string(steps) + "_o" + std::to_string(out_steps);
        if (staged) s += "_staged";
        if (bucket > 0) s += "_b" + std::to_string(bucket);
        if (adjacent_out) s += "_adj";
        if (exact > 0) s += "_e" + std::to_string(exact);
        if (by_vector) s += "_bv";
        return s;
    }
};

// The shared-memory bytes a staged form's rows take at most by default: 40 KB of the 48 KB a
// kernel may take unless its limit is raised (the rest holds the reductions' partials). Halide 21
// never raises it; fuselab's runtime does, at the launch, for a kernel that asks for more
// (device.cpp: launch_kernel), so a form may hold up to Form::staged_bytes (the H200 allows 227 KB
// a block).
constexpr int kStagedBytes = 40960;

// The output's per-row values (RowFuncs::row_values) computed once a thread of a block form, in
// registers, at the output's thread loop (every cut of the block forms' output names it i_t).
inline void hoist_row_values(const RowFuncs &f) {
    const Var t{f.i.name() + "_t"};
    for (const RowFuncs::RowValue &v : f.row_values) {
        Func reader = f.out, via = v.via, value = v.f;
        if (via.defined()) reader = via.clone_in(f.out);
        value.in(reader).compute_at(f.out, t);
    }
}

// The staged rows of a block (warp form) at `block`: the 32 lanes side by side over each row, the
// rows in thread y, 16 bytes a lane a step.
inline void gpu_stage_rows(Func xs, const LoopLevel &block, int V, int steps, int bucket = 0) {
    const std::vector<Var> a = xs.args();
    Var k{"s_k"}, u{"s_u"}, l{"s_l"}, v{"s_v"};
    xs.compute_at(block);
    split_row(xs, a[0], k, u, l, v, 32, V, steps > 0 ? steps : unroll_steps(V), bucket);
    xs.reorder(v, u, k, l, a[1])
        .gpu_threads(l, a[1])
        .vectorize(v)
        .unroll(u)
        .store_in(MemoryType::GPUShared);
}

// Rows that are not whole aligned vectors are loaded and stored element by element. There the
// threads take adjacent elements (i = k T V + v T + t), so that one warp's access is 32
// consecutive elements (64 bytes in 16-bit) instead of 32 elements a vector apart (16 times the
// L1 wavefronts). `s` is a fresh specialization of a row-wise stage (its own cut), on such rows.
inline void adjacent_row_stage(Stage s, const Var &i, const Var &row, int T, int V, int S) {
    Var ik{i.name() + "_k"}, iu{i.name() + "_u"}, it{i.name() + "_t"}, iv{i.name() + "_v"};
    s.split(i, ik, it, T * V, TailStrategy::GuardWithIf)
        .split(it, iv, it, T)
        .split(ik, ik, iu, S, TailStrategy::GuardWithIf)
        .reorder(iv, iu, ik, it, row)
        .gpu_threads(it)
        .unroll(iv)
        .unroll(iu);
}

// The staged row's copy in adjacent_row_stage's layout where rows are not whole aligned vectors
// (the stage's specialization, made before gpu_stage_row cuts the definition): the statistics
// still read the staged row 16 bytes at a time, as it starts at 0 in shared memory.
inline void stage_adjacent(Func xs, const Expr &aligned, int T, int V, int S) {
    const std::vector<Var> a = xs.args();
    adjacent_row_stage(xs.specialize(!aligned), a[0], a[1], T, V, S);
}

// Whether `form` puts the threads over adjacent elements where rows of type t are not whole
// aligned vectors (Form::adjacent).
inline bool adjacent_rows(const Form &form, const Type &t) {
    return form.adjacent == Form::Always || (form.adjacent == Form::Bits16 && t.bits() == 16);
}

// A row-wise stage of one row a block (the output, or the staged row: `blocks` false) on aligned
// rows, cut by the V-element vector first (RoundUp: exact there, as N is a multiple of V), then
// as split_row cuts the row with a bucket B (i = k B + u T V + t V + v): every step's tail guard
// is one test of the vector's index, where a guard on i itself is a test an element, whose
// vector falls back to element-by-element loads and stores.
inline void block_cut_by_vector(Stage s, const Var &i, const Var &row, const std::string &p, int T,
                                int V, int B, bool blocks) {
    Var ik{p + "_k"}, iu{p + "_u"}, it{p + "_t"}, iv{p + "_v"}, iq{p + "_q"};
    s.split(i, iq, iv, V, TailStrategy::RoundUp)
        .split(iq, ik, iu, B / V, TailStrategy::GuardWithIf)
        .split(iu, iu, it, T)
        .reorder(iv, iu, ik, it, row)
        .gpu_threads(it)
        .vectorize(iv)
        .unroll(iu);
    if (blocks) s.gpu_blocks(row);
}

// The exact row lengths of Form::exact: k B for k = 1, 2, 4, ... up to `exact`.
inline std::vector<int> exact_lengths(const Form &form, int B) {
    std::vector<int> ns;
    for (int k = 1; B > 0 && k <= form.exact; k *= 2) ns.push_back(k * B);
    return ns;
}

// Rung k of the padding's ladder (row_pad.h): rows of (k - 1) * unit + 1 to k * unit elements,
// bounded on both sides, so that the padded extent folds to its constant there.
inline Expr pad_rung(const Expr &n, int k, int unit = kPadUnit) {
    return n > (k - 1) * unit && n <= k * unit;
}

// One stage of the block form's output (a specialization, or the definition itself), with a
// padded row (gpu_padded_block_rows): one row a block, T threads of V-element vectors, S steps a
// thread unrolled; `by_vector` cuts the row by the vector first (as warp_regs_output), so that the
// last step's guard is one test a thread's vector.
inline void padded_block_output(Stage s, const Var &i, const Var &row, int T, int V, int S,
                                bool by_vector, bool adjacent = false) {
    Var ik{i.name() + "_k"}, iu{i.name() + "_u"}, it{i.name() + "_t"}, iv{i.name() + "_v"};
    Var iq{i.name() + "_q"};
    if (by_vector) {
        s.split(i, iq, iv, V, TailStrategy::RoundUp)
            .split(iq, ik, it, T, TailStrategy::GuardWithIf)
            .split(ik, ik, iu, S, TailStrategy::GuardWithIf);
    } else if (adjacent) {
        adjacent_row_stage(s, i, row, T, V, S);
        s.gpu_blocks(row);
        return;
    } else {
        s.split(i, ik, it, T * V, TailStrategy::GuardWithIf)
            .split(it, it, iv, V)
            .split(ik, ik, iu, S, TailStrategy::GuardWithIf);
    }
    s.reorder(iv, iu, ik, it, row).gpu_blocks(row).gpu_threads(it).vectorize(iv).unroll(iu);
}

// The block form over a padded row (the pipeline's row_pad params, row_pad.h): the statistics
// reduce over P elements, a multiple of the thread block's T V, so the cut of the row by T V is
// exact and every load of the row unconditional (past N it re-reads the row's last vector, masked
// by a select); a bucket B becomes B / (T V) steps a thread, guarded a step at a time. The output
// is specialized on each rung of the ladder (P a constant there), on aligned rows (cut by the
// vector first: one test a vector) and on the others, with its own S steps (`out_steps`).
inline void gpu_padded_block_rows(RowFuncs f, const Form &form, const Expr &fits,
                                  int staged_bytes) {
    const int T = form.threads, V = vec_elems(f.type), TV = T * V;
    if (f.padding.unit % TV != 0 || f.padding.pad % f.padding.unit != 0) {
        throw CompileError(form.name() + ": a padded row's step (row_pad_unit " +
                           std::to_string(f.padding.unit) + ") must be a multiple of " +
                           std::to_string(TV) + ", and row_pad a multiple of it");
    }
    // The statistics take P / (T V) steps a thread, `unit` / (T V) of them unrolled: P is a
    // multiple of the unit, so no step is guarded (a guarded step, where Halide partitioned the
    // loop on the clamped index first, kept its loads behind branches: 45% more instructions and
    // a 0.66x slower layernorm at N = 16384, s24 c/). The staging and the output run over the N
    // elements, guarded, in B / (T V) steps (the bucket's) or their own.
    const int B = form.bucket, S = f.padding.unit / TV;
    const int SU = B > 0 ? B / TV : (form.steps > 0 ? form.steps : unroll_steps(V));
    const int SO = B > 0 ? B / TV : (form.out_steps > 0 ? form.out_steps : out_steps(V));
    const LoopLevel block(f.out, f.row);
    const bool adjacent = adjacent_rows(form, f.type);
    if (f.second.defined()) {
        // The second output is computed with the first (compute_with), which needs one cut of
        // the row in every specialization: the guarded one.
        gpu_block_rows(f.out, f.i, f.row, T, V, SO);
        gpu_block_rows_with(f.second, f.out, f.i, f.row, T, V, SO);
        for (int k = 1; k * f.padding.unit <= f.padding.pad; k++) {
            f.out.specialize(fits && pad_rung(f.n, k, f.padding.unit) && f.aligned);
        }
        f.out.specialize(fits && f.aligned);
        f.out.specialize(fits && !f.aligned);
    } else {
        for (int e : exact_lengths(form, f.padding.unit)) {
            padded_block_output(f.out.specialize(fits && f.n == e && f.aligned), f.i, f.row, T, V,
                                SO, true);
        }
        for (int k = 1; k * f.padding.unit <= f.padding.pad; k++) {
            padded_block_output(
                f.out.specialize(fits && pad_rung(f.n, k, f.padding.unit) && f.aligned), f.i, f.row,
                T, V, SO, true);
        }
        padded_block_output(f.out.specialize(fits && f.aligned), f.i, f.row, T, V, SO, true);
        padded_block_output(f.out.specialize(fits && !f.aligned), f.i, f.row, T, V, SO, false,
                            adjacent);
        padded_block_output(f.out, f.i, f.row, T, V, SO, false, adjacent);
    }
    // Staged: rows past the shared memory's bytes; otherwise unreachable (aligned or not).
    f.out.specialize_fail(form.name() + " keeps a row in shared memory: rows of at most " +
                          std::to_string(staged_bytes / f.type.bytes()) + " elements of this type");
    if (form.staged) {
        if (adjacent) stage_adjacent(f.source, f.aligned, T, V, SU);
        gpu_stage_row(f.source, block, T, V, SU);
    }
    for (Func &s : f.stats) gpu_block_stat(s, f.r, block, f.row, T, V, S);
    hoist_row_values(f);
}

// The warp form with its lanes over adjacent elements (Form::adjacent_out), for short rows that
// are not whole aligned vectors: R rows a block, a warp a row, lane l at i = k 32V + v 32 + l in
// the outputs and in every statistic's pass, so that each of a warp's element-wise loads and
// stores is 32 consecutive elements (a vector apart, as gpu_warp_rows cuts aligned rows, one
// 2-byte access a lane spans 512 bytes). The last statistic by shuffles, as gpu_rows' warp form.
// One step a lane in the statistics' passes: with 2 or 4 unrolled (the steps split GuardWithIf),
// the H200 computed wrong statistics in 16-bit types (softmax bfloat16 N = 257: 0.13 off; not in
// float32), with no race nor bad access under compute-sanitizer and a lowered statement that
// reads right: cause not found (results/runs/2026-12-05-h200-s29/notes.txt, b/).
inline void gpu_adjacent_warp_rows(RowFuncs &f, const Form &form, int V, int out_steps_) {
    if (form.staged || form.bucket > 0 || form.steps > 1) {
        throw CompileError(form.name() +
                           ": the warp form's adjacent lanes take one step a lane in the "
                           "statistics, neither staged nor cut by a bucket");
    }
    const int R = form.rows, S = out_steps_ > 0 ? out_steps_ : out_steps(V);
    const auto cut = [&](Func g) {
        Var rb{f.row.name() + "_b"}, rw{f.row.name() + "_w"};
        Var ik{f.i.name() + "_k"}, iu{f.i.name() + "_u"}, il{f.i.name() + "_l"};
        Var iv{f.i.name() + "_v"};
        g.split(f.row, rb, rw, R, TailStrategy::GuardWithIf)
            .split(f.i, ik, il, 32 * V, TailStrategy::GuardWithIf)
            .split(il, iv, il, 32)
            .split(ik, ik, iu, S, TailStrategy::GuardWithIf)
            .reorder(iv, iu, ik, il, rw, rb)
            .gpu_blocks(rb)
            .gpu_threads(rw)
            .gpu_lanes(il)
            .unroll(iv)
            .unroll(iu);
    };
    cut(f.out);
    if (f.second.defined()) {
        cut(f.second);
        f.second.compute_with(f.out, Var(f.i.name() + "_v"));
    }
    const LoopLevel warp(f.out, Var(f.row.name() + "_w"));
    const LoopLevel block = gpu_warp_rows_block(f.out, f.row);
    const LoopLevel lane = gpu_warp_rows_lane(f.out, f.i);
    for (size_t k = 0; k + 1 < f.stats.size(); k++) {
        gpu_warp_stat(f.stats[k], f.r, block, f.row, V, 1, 0, true);
    }
    gpu_warp_stat_shfl(f.stats.back(), f.r, warp, lane, f.row, V, 1, 0, true);
}

// Schedules f's pipeline in `form` on CUDA (g: its generator, for the wide-access pass).
template <typename G>
void gpu_rows(G &g, RowFuncs f, const Form &form, const Target &target) {
    const int V = vec_elems(f.type);
    const int U = form.steps, UO = form.out_steps, B = form.bucket;
    // A staged form holds only rows that fit in shared memory; longer ones are refused (below).
    const int rows = form.kind == Form::Block ? 1 : form.rows;
    const int staged_bytes = form.staged_bytes > 0 ? form.staged_bytes : kStagedBytes;
    const Expr fits =
        form.staged ? f.n * f.type.bytes() * rows <= staged_bytes : Internal::const_true();
    // Form::exact is built where the block form's output is cut by a constant: a bucket, or a
    // padded step, with one output there; elsewhere it would be silently nothing.
    if (form.exact > 0 && (form.kind != Form::Block || form.adjacent_out ||
                           (f.padding.padded.defined() ? f.second.defined() : B == 0))) {
        throw CompileError(form.name() +
                           ": exact rows are for the block form cut by a bucket (or a padded step "
                           "with one output), without adjacent_out");
    }
    // Form::by_vector likewise: the unpadded block form cut by a bucket, with one output, without
    // adjacent_out (the forms it was measured in).
    if (form.by_vector && (form.kind != Form::Block || form.adjacent_out || B == 0 ||
                           f.padding.padded.defined() || f.second.defined())) {
        throw CompileError(form.name() +
                           ": rows cut by the vector first are for the unpadded block form cut by "
                           "a bucket, with one output, without adjacent_out");
    }
    if (f.padding.padded.defined()) {
        if (form.kind != Form::Block) {
            throw CompileError(form.name() + ": padded rows are for the block form");
        }
        gpu_padded_block_rows(f, form, fits, staged_bytes);
        wide_accesses(g, target);
        return;
    }
    // A staged block form (Form::adjacent): where rows are not whole aligned vectors, the staging
    // in adjacent_row_stage's layout, and with one output the output too, in its own kernel (made
    // first, so not cut as the others; a second output is computed with the first, one cut).
    const bool staged_adjacent =
        form.kind == Form::Block && form.staged && adjacent_rows(form, f.type);
    const bool adjacent = staged_adjacent && !f.second.defined() && !form.adjacent_out;
    // A block form's threads, and the steps a thread unrolls: the bucket's, else the form's (as
    // split_row cuts the rest).
    const int T = form.threads;
    const int SU = B > 0 ? B / (T * V) : (U > 0 ? U : unroll_steps(V));
    const int SO = B > 0 ? B / (T * V) : (UO > 0 ? UO : out_steps(V));
    if (form.kind == Form::Block && form.adjacent_out) {
        // Every row: the outputs over adjacent elements; a staged row copied in the same layout
        // where rows are not aligned.
        adjacent_row_stage(f.out, f.i, f.row, T, V, SO);
        f.out.gpu_blocks(f.row);
        if (f.second.defined()) {
            adjacent_row_stage(f.second, f.i, f.row, T, V, SO);
            f.second.gpu_blocks(f.row).compute_with(f.out, Var(f.i.name() + "_v"));
        }
        const LoopLevel block(f.out, f.row);
        if (form.staged) {
            stage_adjacent(f.source, f.aligned, T, V, SU);
            gpu_stage_row(f.source, block, T, V, U, B);
        }
        for (Func &s : f.stats) gpu_block_stat(s, f.r, block, f.row, T, V, U, B);
        hoist_row_values(f);
    } else if (form.kind == Form::Block) {
        if (adjacent) {
            Stage odd = f.out.specialize(fits && !f.aligned);
            adjacent_row_stage(odd, f.i, f.row, T, V, SO);
            odd.gpu_blocks(f.row);
        }
        if (staged_adjacent) stage_adjacent(f.source, f.aligned, T, V, SU);
        // Form::by_vector: the aligned specializations made before the definition's cut, each
        // with its own (in the order below: the first that holds runs).
        const bool by_vector = form.by_vector;
        if (by_vector) {
            const std::string p = f.i.name();
            for (int e : exact_lengths(form, B)) {
                block_cut_by_vector(f.out.specialize(fits && f.n == e && f.aligned), f.i, f.row, p,
                                    T, V, B, true);
            }
            block_cut_by_vector(f.out.specialize(fits && f.n <= B && f.aligned), f.i, f.row, p, T,
                                V, B, true);
            block_cut_by_vector(f.out.specialize(fits && f.n >= T * V && f.aligned), f.i, f.row, p,
                                T, V, B, true);
            block_cut_by_vector(f.out.specialize(fits && f.aligned), f.i, f.row, p, T, V, B, true);
            if (form.staged) {
                const std::vector<Var> a = f.source.args();
                block_cut_by_vector(f.source.specialize(f.aligned), a[0], a[1], "s", T, V, B,
                                    false);
            }
        }
        const LoopLevel block = gpu_block_rows(f.out, f.i, f.row, T, V, UO, B);
        if (f.second.defined()) gpu_block_rows_with(f.second, f.out, f.i, f.row, T, V, UO, B);
        if (form.staged) gpu_stage_row(f.source, block, T, V, U, B);
        for (Func &s : f.stats) gpu_block_stat(s, f.r, block, f.row, T, V, U, B);
        hoist_row_values(f);
        // A bucket: rows of at most B, where every cut of the row is a constant (split_row).
        if (!by_vector) {
            for (int e : exact_lengths(form, B)) f.out.specialize(fits && f.n == e && f.aligned);
            if (B > 0) f.out.specialize(fits && f.n <= B && f.aligned);
            f.out.specialize(fits && f.n >= T * V && f.aligned);
            f.out.specialize(fits && f.aligned);
        }
    } else if (form.kind == Form::Warp && form.adjacent_out) {
        gpu_adjacent_warp_rows(f, form, V, UO);
    } else {
        const int R = form.rows;
        const LoopLevel warp = gpu_warp_rows(f.out, f.i, f.row, R, V, UO, B);
        const LoopLevel block = gpu_warp_rows_block(f.out, f.row);
        const LoopLevel lane = gpu_warp_rows_lane(f.out, f.i);
        if (f.second.defined()) gpu_warp_rows_with(f.second, f.out, f.i, f.row, R, V, UO, B);
        if (form.staged) gpu_stage_rows(f.source, block, V, U, B);
        // Every statistic but the last through shared memory (later passes read it); the last,
        // read by the output alone, by shuffles.
        for (size_t k = 0; k + 1 < f.stats.size(); k++) {
            gpu_warp_stat(f.stats[k], f.r, block, f.row, V, U, B);
        }
        gpu_warp_stat_shfl(f.stats.back(), f.r, warp, lane, f.row, V, U, B);
        if (B > 0) f.out.specialize(fits && f.n <= B && f.aligned);
        f.out.specialize(fits && f.n >= 32 * V && f.aligned);
        f.out.specialize(fits && f.aligned);
    }
    if (form.staged) {
        if (!adjacent) f.out.specialize(fits);
        f.out.specialize_fail(form.name() + " keeps " +
                              (rows == 1 ? std::string("a row") : std::to_string(rows) + " rows") +
                              " in shared memory: rows of at most " +
                              std::to_string(staged_bytes / rows / f.type.bytes()) +
                              " elements of this type");
    }
    wide_accesses(g, target);
}

// One stage of the register form's output (a specialization, or the definition itself): R rows a
// block, a warp a row; `by_vector` cuts the row by the 16-byte vector first (RoundUp: exact where
// every row is whole aligned vectors), then the vectors across the lanes and B-element chunks, so
// that a lane's guard is one test of its vector's index and never an element-by-element fallback.
inline void warp_regs_output(Stage s, const Var &i, const Var &row, int R, int V, int B,
                             bool by_vector) {
    Var rb{row.name() + "_b"}, rw{row.name() + "_w"};
    Var ik{i.name() + "_k"}, iu{i.name() + "_u"}, il{i.name() + "_l"}, iv{i.name() + "_v"};
    Var iq{i.name() + "_q"};
    s.split(row, rb, rw, R, TailStrategy::GuardWithIf);
    if (by_vector) {
        s.split(i, iq, iv, V, TailStrategy::RoundUp)
            .split(iq, ik, iu, B / V, TailStrategy::GuardWithIf)
            .split(iu, iu, il, 32);
    } else {
        s.split(i, ik, iu, B, TailStrategy::GuardWithIf)
            .split(iu, iu, il, 32 * V)
            .split(il, il, iv, V);
    }
    s.reorder(iv, iu, ik, il, rw, rb)
        .gpu_blocks(rb)
        .gpu_threads(rw)
        .gpu_lanes(il)
        .vectorize(iv)
        .unroll(iu);
}

// The register form's output (warp_regs strategies): one warp a row, R rows a block, the row cut
// into constant B-element chunks. Returns the warp's level. Specialized on the rows' length, where
// Halide's simplifier then folds the guards: rows of exactly 256, 512 or 1024 elements (no guard,
// no mask), and, where the pipeline pads its rows (`pad`, its row_pad param: row_pad.h), each
// rung of the padding's ladder (rows of 1 to 256, 257 to 512, ... up to pad elements), aligned
// rows, then the others: the padded row is a constant there, every load of the row
// unconditional (16 bytes where aligned); there, where the pipeline has one output, the output is
// cut by the vector first (warp_regs_output), so that its last step is one test a lane. Without
// padding, rows of whole 32-lane vectors (one guard a step instead of one an element).
inline LoopLevel gpu_warp_regs_rows(Func out, Func second, const Var &i, const Var &row, int R,
                                    int V, int B, const Expr &n, const Expr &aligned, int pad = 0) {
    if (pad > 0 && !second.defined()) {
        for (int e : {256, 512, 1024}) {
            if (e <= B) warp_regs_output(out.specialize(n == e && aligned), i, row, R, V, B, false);
        }
        for (int k = 1; k * kPadUnit <= pad; k++) {
            warp_regs_output(out.specialize(pad_rung(n, k) && aligned), i, row, R, V, B, true);
        }
        for (int k = 1; k * kPadUnit <= pad; k++) {
            warp_regs_output(out.specialize(pad_rung(n, k) && !aligned), i, row, R, V, B, false);
        }
        out.specialize_fail("the register form holds rows of at most " + std::to_string(pad) +
                            " elements");
        warp_regs_output(out, i, row, R, V, B, false);
        return LoopLevel(out, Var(row.name() + "_w"));
    }

    const LoopLevel warp = gpu_warp_rows(out, i, row, R, V, 0, B);
    if (second.defined()) gpu_warp_rows_with(second, out, i, row, R, V, 0, B);
    for (int e : {256, 512, 1024}) {
        if (e <= B) out.specialize(n == e && aligned);
    }
    if (pad > 0) {
        for (int k = 1; k * kPadUnit <= pad; k++) out.specialize(pad_rung(n, k) && aligned);
        for (int k = 1; k * kPadUnit <= pad; k++) out.specialize(pad_rung(n, k) && !aligned);
        out.specialize_fail("the register form holds rows of at most " + std::to_string(pad) +
                            " elements");
        return warp;
    }
    out.specialize(n % (32 * V) == 0 && aligned);
    out.specialize(aligned);
    return warp;
}

}  // namespace fuselab::rows
