// Loop shapes shared by the row pipelines' strategies (softmax, rmsnorm_residual, layernorm):
// a row is dimension 0 (N contiguous elements, the variable `i`), rows are dimension 1 (`row`);
// each pipeline's statistics are reductions over the row's RDom r (s(row) = init; s(row) =
// op(s(row), f(r, row))), consumed by a pointwise output. A strategy file says which Funcs go
// where; these say how a row is cut across threads, lanes and blocks.
//
// Every CUDA split is GuardWithIf (any N and M, N = 1 included). A thread loads V consecutive
// elements as one 16-byte vector (4 float32, 8 bfloat16/float16), threads side by side, so a
// warp's load is 512 contiguous bytes. The vectors are aligned, and so 16-byte loads, only where
// every row starts at a multiple of 16 bytes: the strategies specialize on the rows' strides
// (aligned_rows) and declare the buffers' 16-byte alignment (align_buffers); elsewhere the same
// loop nest loads element by element.
//
// Cross-thread reductions (rfactor, never a log-tree of Funcs: HALIDE-CUDA-NOTES.md, the
// warp-shuffle miscompile). A thread's V accumulators are registers (a vector); then:
//   block (gpu_block_stat): each thread's partial in shared memory (T floats), 32 threads reduce
//         the W warps' partials of one lane each (shared), one thread reduces those 32 into a
//         register (gpu_rows_final) and stores the row's value in shared memory for the block.
//   warp, shared (gpu_warp_stat): each lane's partial in shared memory (32 a row), one thread a
//         row reduces the row's 32 (gpu_rows_final). Any number of passes may read the result.
//   warp, shuffles (gpu_warp_stat_shfl, the notes' one-warp form): each lane's partial in
//         lane-striped registers (gpu_lanes), s computed inside the output's lane loop from the
//         32 partials by a three-step tree of shuffles (gpu_lane_tree). Only the output may
//         read it.
// Halide 21 pitfalls met on the way (each seen in the lowered statement or the PTX):
//   - a statistic computed at the warp level (inside gpu_threads, outside gpu_lanes) with
//     store_in(GPUShared) gets one copy per lane, indexed per lane, in an allocation sized per
//     row: shared stores past the allocation. Not used.
//   - a lane loop of extent 1 (to put a warp-level statistic "in lanes") leaves shfl.sync inside
//     `if (lane < 1)`: a full-mask shuffle by one lane. Not used.
//   - clone_in of an rfactored Func: the copy's update still reads the original. So a statistic
//     read by two passes (softmax's max, layernorm's mean) is reduced through shared memory, once.
//   - compute_with over split rows on the CPU widened the statistics' bounds to the rest of the
//     task's rows (two_pass's CPU form computes one row a task).
#pragma once

#include <algorithm>
#include <vector>

#include "Halide.h"
#include "fuselab/wide_accesses.h"
#include "storage.h"

namespace fuselab::rows {

using namespace Halide;

// Elements of storage type `t` in one 16-byte vector.
inline int vec_elems(const Type &t) {
    return 16 / t.bytes();
}

// The 16-byte alignment of these buffers' host pointers, checked at the call (device
// allocations are 256-byte aligned); with aligned_rows, it lets the row loads be 16-byte vectors.
template <typename... B>
void align_buffers(B &...buffers) {
    (buffers.set_host_alignment(16), ...);
}

// Every row of these 2-D buffers starts a multiple of `v` elements from the buffer's start, and
// the first's rows are a multiple of v long (storage.h: rows_aligned, also the condition of the
// float16 route in the algorithms).
template <typename... B>
Expr aligned_rows(int v, const B &...buffers) {
    return rows_aligned(v, buffers...);
}

// ---------------------------------------------------------------------------------------------
// CPU

// The CPU's vector of float32 (16 with AVX-512, 8 with AVX2).
inline int cpu_lanes(const Target &t) {
    return t.natural_vector_size<float>();
}

// Rows a parallel task on the CPU, for N x M rows: one contiguous share of the rows a thread of
// Halide's pool (halide_get_num_threads, read once a call), as ONNX Runtime splits them, but at
// least ~16K elements (one row where rows are longer). Tasks of 16K elements, taken from the pool
// one at a time, ran softmax float32 1.3 to 1.7x slower on a 2-core Zen 5 VM (alternating runs,
// results/runs/2026-12-06-gpu-s41/cpu_tasks); a share a thread ran level with ONNX Runtime there.
inline Expr cpu_rows_per_task(const Expr &n, const Expr &m) {
    const Expr threads = max(
        1, Internal::Call::make(Int(32), "halide_get_num_threads", {}, Internal::Call::PureExtern));
    return max(1, 16384 / max(n, 1), (m + threads - 1) / threads);
}

// A row-wise output on the CPU: N x M rows in parallel tasks (cpu_rows_per_task), each row's
// elements in vectors of the native width. Returns the level of one row, where its statistics
// are computed (the row stays in L1/L2 between the passes), and sets `task` (where given) to the
// level of one task, where a row's scratch can be allocated.
inline LoopLevel cpu_rows(Func out, const Var &i, const Var &row, const Expr &n, const Expr &m,
                          const Target &t, LoopLevel *task = nullptr) {
    Var rowo{row.name() + "_o"}, rowi{row.name() + "_i"};
    out.split(row, rowo, rowi, cpu_rows_per_task(n, m), TailStrategy::GuardWithIf)
        .vectorize(i, cpu_lanes(t), TailStrategy::GuardWithIf)
        .parallel(rowo);
    if (task) *task = LoopLevel(out, rowo);
    return LoopLevel(out, rowi);
}

// The same for a second output computed with the first (rmsnorm_residual's h with out): the same
// loop nest, fused with `out` down to its vectors, so that a row's two outputs are written in one
// loop, not two. Fused at the row only, each row took a third pass over x and residual. Fused
// here, rmsnorm_residual's lane_rows and two_pass ran 0.72 to 1.23x the time before (medians
// 0.99 and 0.95) at 2^22 elements, ten shapes in three types, on a 2-core Zen 3; block_row, with
// its bfloat16 scratch row too, 0.69 to 1.16x, median 0.87 (cpu_rms/ab2_2t_summary.txt in
// results/runs/2026-12-07-gpu-s44).
inline void cpu_rows_with(Func f, Func out, const Var &i, const Var &row, const Expr &n,
                          const Expr &m, const Target &t) {
    Var rowo{row.name() + "_o"}, rowi{row.name() + "_i"};
    f.split(row, rowo, rowi, cpu_rows_per_task(n, m), TailStrategy::GuardWithIf)
        .vectorize(i, cpu_lanes(t), TailStrategy::GuardWithIf)
        .parallel(rowo)
        .compute_with(out, i);
}

// Rows short enough for one chain of a row statistic's partials on the CPU (cpu_stat): a lane
// adds at most 2048 / L values in order there.
inline Expr short_row(const Expr &n) {
    return n <= 2048;
}

// A row statistic on the CPU, computed at `at`: vectors of partial results (independent chains for
// the out-of-order core), reduced to the scalar once per row.
// - Short rows (short_row) in `short_chains` chains. 1 where nothing folds the partials (below):
//   the last step is then L scalar steps a row, not 4L, and at N = 256 (16 vectors a row) the 64
//   of 4 chains cost more than one chain's latency saves (alternating A/B on the AVX-512 Xeon,
//   results/runs/2026-12-04-cpu-s27/ab_chains.txt, at N = 256: rmsnorm_residual block_row 1.18 to
//   1.47x, two_pass 1.05 to 1.38x, the unfused forms 1.05 to 1.65x). softmax's and layernorm's
//   two_pass keep 4: with 1 they lost at some sizes in a first A/B, which was not kept (0.73 to
//   0.91x).
// - Longer rows in 4 chains, cascaded: each chunk of 64 steps summed from zero, then added to the
//   row's partials, so that a lane adds at most 64 + N / (256 L) values in order, not N / (4 L).
//   Without it, rmsnorm_residual's float32 rows of one value were 1.2e-5 off at N = 65537 in one
//   chain (CI, 2026-12-04) and 5e-6 in 4; with it 5e-7 (results/runs/2026-12-05-cpu-s28).
inline void cpu_stat(Func s, const RVar &r, const LoopLevel &at, const Target &t, const Expr &n,
                     bool fold = false, int short_chains = 4) {
    const int L = cpu_lanes(t);
    const auto form = [&](Stage st, int chains, bool cascade, const std::string &tag) {
        RVar ro{r.name() + tag + "_o"}, rv{r.name() + tag + "_v"}, rc{r.name() + tag + "_c"},
            rk{r.name() + tag + "_k"};
        Var v{s.name() + tag + "_v"}, vo{s.name() + tag + "_vo"}, vv{s.name() + tag + "_vv"},
            c{s.name() + tag + "_c"};
        st.split(r, ro, rv, chains * L, TailStrategy::GuardWithIf);
        // The chunks cut the loop over steps (a guard a step), never the vectors' elements.
        if (cascade) st.split(ro, rc, rk, 64, TailStrategy::GuardWithIf);
        Func p = st.rfactor(rv, v);
        // The partials' lanes innermost in memory, so that each vector is one dense load and
        // store (the row's extent there is not always 1: compute_with's bounds are conservative).
        std::vector<Var> order{v};
        for (const Var &a : p.args()) {
            if (a.name() != v.name()) order.push_back(a);
        }
        p.reorder_storage(order).compute_at(at).vectorize(v, L);
        if (cascade) {
            Func k = p.update().rfactor(rc, c);
            k.compute_at(p, rc).vectorize(v, L);
            k.update().split(v, vo, vv, L).vectorize(vv).unroll(vo);
        }
        // The vectors unrolled: constant indices, so that they live in registers. A loop over
        // them kept each in the stack frame, a load and a store a vector (perf on the AVX2 EPYC,
        // 2026-12-02: 7% of softmax/block_row's samples on those loads and stores alone;
        // results/runs/2026-12-02-cpu-s14/perf_before.txt).
        p.update().split(v, vo, vv, L).vectorize(vv).unroll(vo);
        // fold: the chains summed lane by lane into one vector (q), then its L lanes into the
        // scalar, instead of 4L scalar steps a row, which cost short rows (N = 256) a third of
        // their time. Only where `at` is one row: under compute_with (rmsnorm_residual's h, the
        // two_pass forms) q's bounds span the task's rows, and it ran slower there.
        if (fold && chains > 1) {
            RVar qo{s.name() + tag + "_qo"}, qi{s.name() + tag + "_qi"};
            Var w{s.name() + tag + "_w"};
            Func q = st.split(rv, qo, qi, L).rfactor(qi, w);
            q.compute_at(at).vectorize(w, L);
            q.update().vectorize(w, L);
            // Unrolled on whole steps: constant indices, so that the partials can live in
            // registers where every use has them (cpu_rows_specialize's whole_steps branch).
            // Unrolled on every row, they ran 6 to 9% slower at N = 80 to 200
            // (results/runs/2026-12-05-cpu-s34/ab_unroll_l2f.txt).
            q.update().specialize(n % (chains * L) == 0).unroll(qo);
            // The L lanes into the scalar as a tree of shuffles (Halide's VectorReduce): in
            // order, they were a chain of L dependent steps a row, about 40% of
            // softmax/block_row's samples at N = 256 on the AVX-512 Xeon (perf, 2026-12-04,
            // results/runs/2026-12-04-cpu-s27).
            st.atomic().vectorize(qi);
        }
    };
    // The specialization first: it copies the definition as it stands.
    form(s.update().specialize(short_row(n)), short_chains, false, "_s");
    form(s.update(), 4, true, "");
    s.compute_at(at);
}

// Rows short enough for a statistic with rows in the vector's lanes (cpu_lane_stat).
inline Expr lane_row(const Expr &n) {
    return n <= 48;
}

// A row statistic on the CPU computed at `at` (a task of rows, cpu_rows' `task`) for all of its
// rows, each reduced on its own: where the row is short (lane_row), L rows at a time, a lane a
// row, each lane's chain over r in order (x86 has no strided vector load: L scalar loads and
// inserts a step); a row of N < L elements in cpu_stat's vectors along the row is one masked
// vector, and its statistics' folds and shuffle trees are a chain of dependent steps a row.
// Longer rows as cpu_stat's (one chain), the task's rows one after the other.
inline void cpu_lane_stat(Func s, const RVar &r, const Var &row, const LoopLevel &at,
                          const Target &t, const Expr &n) {
    const int L = cpu_lanes(t);
    Var ro{s.name() + "_lo"}, rl{s.name() + "_ll"};
    s.vectorize(row, L, TailStrategy::GuardWithIf);
    // The specialization first: cpu_stat's rfactor changes the update it copies.
    s.update()
        .specialize(lane_row(n))
        .split(row, ro, rl, L, TailStrategy::GuardWithIf)
        .reorder(rl, r, ro)
        .vectorize(rl);
    cpu_stat(s, r, at, t, n, false, 1);
}

// The CPU output specialized on rows of at least 4 vectors, where the simplifier proves every
// lane of a statistic's partials valid: the folds (cpu_stat's `fold`) and the statistics' last
// steps lose their masked loads and stores (vmaskmovps, vpmaskmovd: 13% of softmax/block_row's
// samples at N = 256 by perf on the AVX2 EPYC, 2026-12-02, results/runs/2026-12-02-cpu-s14). Not
// with a second output computed with `out` (compute_with).
// whole_steps: first a branch for rows that are whole steps of cpu_stat's 4 chains, where the
// folds' loops are unrolled (cpu_stat) and, in this branch alone, their partials stay in
// registers (layernorm's block_row within L2, one thread, alternated A/B on the AMD EPYC VM:
// 1.35x at N = 256, 1.21x at 64, 1.01 to 1.05x at 100, 200, 1024, 4096; bfloat16 and float16
// 0.99 to 1.21x; results/runs/2026-12-05-cpu-s34/ab_spec_l2*.txt). softmax's block_row runs it
// slower at N = 64 (0.92x) and no faster at 256, and keeps one branch (abcd_raw.txt there).
inline void cpu_rows_specialize(Func out, const Expr &n, const Target &t,
                                bool whole_steps = false) {
    const int L = cpu_lanes(t);
    if (whole_steps) out.specialize(n >= 4 * L && n % (4 * L) == 0);
    out.specialize(n >= 4 * L);
}

// A row statistic on the CPU as its own parallel loop over rows (in tasks as cpu_rows), each
// row reduced as cpu_stat, the results in a buffer of M values.
inline void cpu_stat_root(Func s, const RVar &r, const Var &row, const Expr &n, const Expr &m,
                          const Target &t) {
    Var rowo{row.name() + "_o"}, rowi{row.name() + "_i"};
    Func k = s.in();
    k.compute_root()
        .split(row, rowo, rowi, cpu_rows_per_task(n, m), TailStrategy::GuardWithIf)
        .parallel(rowo);
    cpu_stat(s, r, LoopLevel(k, rowi), t, n, false, 1);
}

// A pointwise per-row stage at `at` (e.g. exp(x - max), read by both the sum and the output),
// vectorized: the row's values in a scratch buffer that stays in cache, allocated once a task
// (`store`, cpu_rows' `task`) and reused row after row: allocated at the row, its size (N) is
// dynamic, so Halide took it from the heap, a malloc and a free a row (the stack, below, is
// Halide's pseudostack, which takes a heap block past 16 KB).
inline void cpu_row_stage(Func f, const Var &i, const LoopLevel &at, const LoopLevel &store,
                          const Target &t) {
    f.store_at(store).compute_at(at).vectorize(i, cpu_lanes(t), TailStrategy::GuardWithIf);
    // On the stack (Halide's pseudostack: alloca up to 16 KB, one heap block past it), not a
    // halide_malloc and free a task. Neither place avoids softmax/block_row's slow shapes on two
    // threads (3x to 5x at some N x M in a fresh `fuselab bench`, which of them depending on
    // where x, out and this buffer lie): the heap had them at N = 257 to 272, the stack at 280
    // (float32) and 272, 274 (float16) at 2^22 elements; level elsewhere (0.96 to 1.02x at N =
    // 64 to 65536; results/runs/2026-12-06-gpu-s42/cpu_scan, notes.txt there).
    f.store_in(MemoryType::Stack);
    // One row's worth, reused row after row: unfolded, the task's rows each had their own (64 KB
    // of float32 a task), past the 48 KB L1 (7% of softmax/block_row's time at N = 256 and 4096,
    // results/runs/2026-12-04-cpu-s27).
    f.fold_storage(f.args()[1], 1);
}

// A 2-D pointwise Func as its own parallel loop nest (the unfused form's stages).
inline void cpu_root_2d(Func f, const Var &i, const Var &row, const Expr &n, const Expr &m,
                        const Target &t) {
    cpu_rows(f.compute_root(), i, row, n, m, t);
}

// ---------------------------------------------------------------------------------------------
// CUDA

// Loads in flight a thread: the element loops are unrolled by unroll_steps(V) vectors (16
// elements: 4 float32 vectors, 2 of 16-bit types), so that each thread issues that many
// independent 16-byte loads before it waits on the first. 16-bit types keep fewer (their
// elements, widened to float32, take the registers: 4 steps of 8 took 111 registers in
// rmsnorm_residual/block_row, 2 blocks an SM).
inline int unroll_steps(int V) {
    return std::max(1, 16 / V);
}

// The output passes' unrolling: half the statistics' (their loads mostly hit L1/L2 after the
// first pass, and each step holds every input's vector and the result: the output kernel of
// rmsnorm_residual took 90 registers at 4 steps).
inline int out_steps(int V) {
    return std::max(1, unroll_steps(V) / 2);
}

// A row's elements cut for W threads (or lanes) of V-element vectors: i = k * S + u * WV + t * V
// + v, with u unrolled. Without a bucket, S = steps * WV (k over the row, a run-time extent);
// with a bucket B (a multiple of WV), S = B and u runs over all B / (WV) steps, a constant
// extent, so every loop inside k is unrolled and known (k is 0 for every row of at most B).
inline void split_row(Func f, const Var &i, const Var &k, const Var &u, const Var &t, const Var &v,
                      int W, int V, int steps, int bucket) {
    if (bucket > 0) {
        f.split(i, k, u, bucket, TailStrategy::GuardWithIf).split(u, u, t, W * V).split(t, t, v, V);
    } else {
        f.split(i, k, t, W * V, TailStrategy::GuardWithIf)
            .split(t, t, v, V)
            .split(k, k, u, steps, TailStrategy::GuardWithIf);
    }
}

// The same cut of a statistic's reduction variable r: ro the bucket (or the run-time steps), ru
// the unrolled steps, rt the thread (lane), rv the vector. `adjacent` (no bucket): the threads
// over adjacent elements instead (r = ro * WV + rv * W + rt), for rows that are not whole aligned
// vectors, loaded element by element: one warp's load is then 32 consecutive elements.
inline void split_row_r(Stage s, const RVar &r, const RVar &ro, const RVar &ru, const RVar &rt,
                        const RVar &rv, int W, int V, int bucket, bool adjacent = false) {
    if (adjacent) {
        s.split(r, ro, rt, W * V).split(rt, rv, rt, W);
    } else if (bucket > 0) {
        s.split(r, ro, ru, bucket).split(ru, ru, rt, W * V).split(rt, rt, rv, V);
    } else {
        s.split(r, ro, rt, W * V).split(rt, rt, rv, V);
    }
}

// A row-wise output, one row per block: T threads side by side over the row, each V consecutive
// elements a step (i = k * TV + t * V + v), the steps in a serial loop unrolled by out_steps(V).
// Returns the block level.
inline LoopLevel gpu_block_rows(Func out, const Var &i, const Var &row, int T, int V, int steps = 0,
                                int bucket = 0) {
    Var ik{i.name() + "_k"}, iu{i.name() + "_u"}, it{i.name() + "_t"}, iv{i.name() + "_v"};
    split_row(out, i, ik, iu, it, iv, T, V, steps > 0 ? steps : out_steps(V), bucket);
    out.reorder(iv, iu, ik, it, row).gpu_blocks(row).gpu_threads(it).vectorize(iv).unroll(iu);
    return LoopLevel(out, row);
}

// A second output with the same loop nest, fused with `out` at the thread level (rmsnorm's h:
// each thread stores both outputs of the same elements, from one load of x and residual).
inline void gpu_block_rows_with(Func f, Func out, const Var &i, const Var &row, int T, int V,
                                int steps = 0, int bucket = 0) {
    Var ik{i.name() + "_k"}, iu{i.name() + "_u"}, it{i.name() + "_t"}, iv{i.name() + "_v"};
    split_row(f, i, ik, iu, it, iv, T, V, steps > 0 ? steps : out_steps(V), bucket);
    f.reorder(iv, iu, ik, it, row)
        .gpu_blocks(row)
        .gpu_threads(it)
        .vectorize(iv)
        .unroll(iu)
        .compute_with(out, iu);
}

// The per-thread partials of a statistic reduced by one block of T = 32W threads (see the
// header), computed at `block`: each thread's V accumulators (registers, unroll_steps(V)
// loads in flight), its partial (shared), and where T > 32 the W warps' partials of each
// lane, by 32 threads (shared). Returns the RVar over which s then reduces the row's 32 (or T)
// partials.
inline RVar gpu_block_partials(Func s, const RVar &r, const LoopLevel &block, int T, int V,
                               int steps = 0, int bucket = 0, bool adjacent = false) {
    const std::string n = s.name();
    RVar ro{n + "_ro"}, ru{n + "_ru"}, rt{n + "_rt"}, rv{n + "_rv"}, rw{n + "_rw"}, rl{n + "_rl"};
    Var v{n + "_v"}, t{n + "_t"}, l{n + "_l"};
    split_row_r(s.update(), r, ro, ru, rt, rv, T, V, bucket, adjacent);
    Func pv = s.update().rfactor({{rt, t}, {rv, v}});
    Func pt = s.update().rfactor(rt, t);
    pt.compute_at(block).gpu_threads(t);
    pt.update().reorder(rv, t).gpu_threads(t).unroll(rv);
    pv.compute_at(pt, t).vectorize(v);
    if (bucket == 0) {
        pv.update().split(ro, ro, ru, steps > 0 ? steps : unroll_steps(V),
                          TailStrategy::GuardWithIf);
    }
    pv.update().reorder(v, ru, ro, t).unroll(ru);
    adjacent ? pv.update().unroll(v) : pv.update().vectorize(v);
    if (T <= 32) return rt;
    Func pl = s.update().split(rt, rw, rl, 32).rfactor(rl, l);
    pl.compute_at(block).gpu_threads(l);
    pl.update().reorder(rw, l).gpu_threads(l).unroll(rw);
    return rl;
}

// A row statistic's last step, at `block` for the block's rows (one row: block_row; R rows:
// warp_row): one thread a row reduces the row's partials from shared memory into a register
// (unrolled, so that the loads overlap) and stores the result in shared memory, where every
// thread of the block reads it. `last` is the RVar of s's update over the partials.
inline void gpu_rows_final(Func s, const RVar &last, const LoopLevel &block, const Var &row) {
    Func sw = s.in();
    sw.compute_at(block).gpu_threads(row).store_in(MemoryType::GPUShared);
    s.compute_at(sw, row).store_in(MemoryType::Register);
    s.update().unroll(last, 8, TailStrategy::GuardWithIf);
}

// A statistic reduced inside one block (gpu_block_partials, then gpu_rows_final).
inline void gpu_block_stat(Func s, const RVar &r, const LoopLevel &block, const Var &row, int T,
                           int V, int steps = 0, int bucket = 0, bool adjacent = false) {
    gpu_rows_final(s, gpu_block_partials(s, r, block, T, V, steps, bucket, adjacent), block, row);
}

// A statistic as its own kernel, one row per block of T threads, the result in global memory
// (the unfused and two_pass forms). Returns the kernel's block level (where a statistic it
// reads can be computed too). `aligned` (where given) specializes the kernel on it, so that its
// loads are 16-byte vectors where it holds.
inline LoopLevel gpu_stat_kernel(Func s, const RVar &r, const Var &row, int T, int V,
                                 const Expr &aligned = Expr()) {
    Func k = s.in();
    k.compute_root().gpu_blocks(row);
    if (aligned.defined()) k.specialize(aligned);
    const LoopLevel block(k, row);
    const RVar last = gpu_block_partials(s, r, block, T, V);
    s.compute_at(block);
    s.update().unroll(last, 8, TailStrategy::GuardWithIf);
    return block;
}

// A per-row Func f (no update) as its own kernel: one row per block, its statistics computed
// inside (gpu_block_stat at the returned block level).
inline LoopLevel gpu_row_kernel(Func f, const Var &row) {
    f.compute_root().gpu_blocks(row);
    return LoopLevel(f, row);
}

// A 2-D pointwise Func as its own kernel (the unfused form's stages): one row per block,
// specialized on `aligned` where given (gpu_stat_kernel).
inline void gpu_root_2d(Func f, const Var &i, const Var &row, int T, int V,
                        const Expr &aligned = Expr()) {
    gpu_block_rows(f.compute_root(), i, row, T, V);
    if (aligned.defined()) f.specialize(aligned);
}

// A row staged in shared memory in its storage type, at `block` (one row a block), by the
// block's T threads (16 bytes a thread a step, coalesced): every later pass of the block reads
// it there instead of from L1/L2. `xs` is the staged Func: x.in() for an input, or a pointwise
// stage (rmsnorm's x + residual, rounded).
inline void gpu_stage_row(Func xs, const LoopLevel &block, int T, int V, int steps = 0,
                          int bucket = 0) {
    const std::vector<Var> a = xs.args();
    Var k{"s_k"}, u{"s_u"}, t{"s_t"}, v{"s_v"};
    xs.compute_at(block);
    split_row(xs, a[0], k, u, t, v, T, V, steps > 0 ? steps : unroll_steps(V), bucket);
    xs.reorder(v, u, k, t, a[1])
        .gpu_threads(t)
        .vectorize(v)
        .unroll(u)
        .store_in(MemoryType::GPUShared);
}

// A row-wise output with R rows per block, one warp per row: the 32 lanes side by side over the
// row, V consecutive elements a step, unrolled by out_steps(V); lanes are thread x, the
// block's rows thread y. Returns the warp's level (one row).
inline LoopLevel gpu_warp_rows(Func out, const Var &i, const Var &row, int R, int V, int steps = 0,
                               int bucket = 0) {
    Var rb{row.name() + "_b"}, rw{row.name() + "_w"};
    Var ik{i.name() + "_k"}, iu{i.name() + "_u"}, il{i.name() + "_l"}, iv{i.name() + "_v"};
    out.split(row, rb, rw, R, TailStrategy::GuardWithIf);
    split_row(out, i, ik, iu, il, iv, 32, V, steps > 0 ? steps : out_steps(V), bucket);
    out.reorder(iv, iu, ik, il, rw, rb)
        .gpu_blocks(rb)
        .gpu_threads(rw)
        .gpu_lanes(il)
        .vectorize(iv)
        .unroll(iu);
    return LoopLevel(out, rw);
}

// The block level and the lane level of gpu_warp_rows.
inline LoopLevel gpu_warp_rows_block(Func out, const Var &row) {
    return LoopLevel(out, Var(row.name() + "_b"));
}
inline LoopLevel gpu_warp_rows_lane(Func out, const Var &i) {
    return LoopLevel(out, Var(i.name() + "_l"));
}

// The second output of gpu_warp_rows, fused with the first at the innermost unrolled level.
inline void gpu_warp_rows_with(Func f, Func out, const Var &i, const Var &row, int R, int V,
                               int steps = 0, int bucket = 0) {
    Var rb{row.name() + "_b"}, rw{row.name() + "_w"};
    Var ik{i.name() + "_k"}, iu{i.name() + "_u"}, il{i.name() + "_l"}, iv{i.name() + "_v"};
    f.split(row, rb, rw, R, TailStrategy::GuardWithIf);
    split_row(f, i, ik, iu, il, iv, 32, V, steps > 0 ? steps : out_steps(V), bucket);
    f.reorder(iv, iu, ik, il, rw, rb)
        .gpu_blocks(rb)
        .gpu_threads(rw)
        .gpu_lanes(il)
        .vectorize(iv)
        .unroll(iu)
        .compute_with(out, iu);
}

// A statistic's per-lane partials for one warp a row: r = ro * 32V + u * V + v; lane u keeps V
// accumulators in registers (unroll_steps(V) loads in flight) and its partial pu(u) in `partials`
// memory. Returns the RVar over which s then reduces the 32 partials.
inline RVar gpu_warp_partials(Func s, const RVar &r, const LoopLevel &at, const Var &row, int V,
                              bool lanes_in_registers, int steps = 0, int bucket = 0,
                              bool adjacent = false) {
    const std::string n = s.name();
    RVar ro{n + "_ro"}, ru{n + "_ru"}, rl{n + "_rl"}, rv{n + "_rv"};
    Var v{n + "_v"}, u{n + "_u"};
    split_row_r(s.update(), r, ro, ru, rl, rv, 32, V, bucket, adjacent);
    Func pv = s.update().rfactor({{rl, u}, {rv, v}});
    Func pu = s.update().rfactor(rl, u);
    if (lanes_in_registers) {
        // Lane-striped registers at the warp's level (gpu_lanes), read across lanes by shuffles.
        pu.compute_at(at).gpu_lanes(u);
        pu.update().reorder(rv, u).gpu_lanes(u).unroll(rv);
    } else {
        // Shared memory at the block's level: lanes in x, the block's rows in y.
        pu.compute_at(at).reorder(u, row).gpu_threads(u, row);
        pu.update().reorder(rv, u, row).gpu_threads(u, row).unroll(rv);
    }
    pv.compute_at(pu, u).vectorize(v);
    if (bucket == 0) {
        pv.update().split(ro, ro, ru, steps > 0 ? steps : unroll_steps(V),
                          TailStrategy::GuardWithIf);
    }
    pv.update().reorder(v, ru, ro, u).unroll(ru);
    adjacent ? pv.update().unroll(v) : pv.update().vectorize(v);
    return rl;
}

// The last step of a statistic whose 32 lane partials are lane-striped registers at `warp`
// (gpu_warp_partials' RVar rl over them): lanes 0..7 each combine 4 partials, read by
// shfl.sync.down by 8, 16 and 24; lanes 0..3 each combine 2 of those 8, read by shfl.sync.down
// by 4; then every lane (s, computed where it is read) combines those 4, read by shfl.sync.idx:
// 8 shuffles and 8 combines a lane, against 11 and 11 with the 8 read by every lane (s35) and 32
// and 32 with all 32 (s17), where the statistics were most of the instructions of a 16-bit row
// of 256 (8 elements a lane). All 32 lanes run the down shuffles, as shfl.sync requires; the
// lanes past each stage discard theirs. A stage of 2 lanes is left out: it is the one that
// Halide 21 miscompiles (LowerWarpShuffles takes `lane < 2` for one thread; HALIDE-CUDA-NOTES.md,
// the log-tree of Funcs), while `lane < 4` is a stage of 4.
inline void gpu_lane_tree(Func s, const RVar &rl, const LoopLevel &warp) {
    const std::string n = s.name();
    RVar lo{n + "_lo"}, li{n + "_li"}, l2{n + "_l2"}, l1{n + "_l1"};
    Var w{n + "_w"}, u{n + "_u"}, v{n + "_v"};
    s.update().split(rl, lo, li, 8).split(li, l2, l1, 4);
    Func q4 = s.update().rfactor(l1, w);   // q4(w), w < 4: over lo and l2
    Func q8 = q4.update().rfactor(l2, u);  // q8(w, u), lane w + 4 u < 8: over lo
    q8.compute_at(warp).fuse(w, u, v).gpu_lanes(v);
    q8.update().fuse(w, u, v).reorder(lo, v).gpu_lanes(v).unroll(lo);
    q4.compute_at(warp).gpu_lanes(w);
    q4.update().reorder(l2, w).gpu_lanes(w).unroll(l2);
    s.update().unroll(l1);
}

// A statistic reduced by one warp a row, its partials in shared memory and its last step by one
// thread a row (gpu_rows_final), at `block` (gpu_warp_rows_block). Any number of stages may read
// it (softmax's max is read by the sum's pass and by the output).
inline void gpu_warp_stat(Func s, const RVar &r, const LoopLevel &block, const Var &row, int V,
                          int steps = 0, int bucket = 0, bool adjacent = false) {
    gpu_rows_final(s, gpu_warp_partials(s, r, block, row, V, false, steps, bucket, adjacent), block,
                   row);
}

// A statistic reduced by one warp a row through warp shuffles (HALIDE-CUDA-NOTES.md's one-warp
// form): the partials lane-striped in registers at `warp` (gpu_warp_rows' level), s computed
// inside the output's lane loop (`lane`), where each lane combines the 32 partials
// (gpu_lane_tree). Only the output may read s: a statistic that another pass reads (softmax's
// max) would need a second copy inside that pass's lane loop, and a copy of an rfactored Func
// (clone_in) still refers to the original in Halide 21.
inline void gpu_warp_stat_shfl(Func s, const RVar &r, const LoopLevel &warp, const LoopLevel &lane,
                               const Var &row, int V, int steps = 0, int bucket = 0,
                               bool adjacent = false) {
    gpu_lane_tree(s, gpu_warp_partials(s, r, warp, row, V, true, steps, bucket, adjacent), warp);
    s.compute_at(lane);
}

// The register form (warp_regs strategies): a pointwise row stage f held in lane-striped registers
// at the warp's level (gpu_warp_rows), the row cut as the output is (32 lanes of V-element
// vectors, B-element chunks), its storage bounded to B elements, so that rows of at most B (the
// strategy's row_limit) stay in registers: each lane holds B / 32 of them. Every later stage of
// the warp reads f there instead of from memory. Returns f's lane level.
//
// `padded` (where the pipeline pads its rows, row_pad.h: the statistics' padded extent): f is
// computed over the whole padded row, not only where the masked statistics read it (bounds
// inference trims a select's branch to its condition): in each rung of the padding, a constant,
// so that every load of the row is unconditional.
inline LoopLevel gpu_warp_regs(Func f, const Var &i, const LoopLevel &warp, int V, int B,
                               const Expr &padded = Expr()) {
    const std::string n = f.name();
    const std::vector<Var> a = f.args();
    Var k{n + "_k"}, u{n + "_u"}, l{n + "_l"}, v{n + "_v"};
    f.compute_at(warp);
    if (padded.defined()) f.bound(i, 0, padded);
    split_row(f, i, k, u, l, v, 32, V, 0, B);
    f.reorder(v, u, k, l, a[1]).gpu_lanes(l).vectorize(v).unroll(u).bound_storage(i, B);
    return LoopLevel(f, l);
}

// A statistic of the register form: each lane's partial from its registers (lane-striped at
// `warp`), then the 32 combined by shuffles (gpu_lane_tree) inside `lane`, the lane loop of the
// one stage that reads it.
inline void gpu_warp_stat_in(Func s, const RVar &r, const LoopLevel &warp, const LoopLevel &lane,
                             const Var &row, int V, int B) {
    gpu_lane_tree(s, gpu_warp_partials(s, r, warp, row, V, true, 0, B), warp);
    s.compute_at(lane);
}

}  // namespace fuselab::rows
