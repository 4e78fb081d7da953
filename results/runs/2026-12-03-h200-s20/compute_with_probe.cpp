// s20 probe (2026-12-03, compiled here, not run on a GPU): Halide 21 joins rmsnorm_residual's
// output h and the chunks' partials into one CUDA kernel with compute_with, where the two loop
// nests' fused block dimensions carry the same name (the partials' chunk index is named i and
// split by 1, so that both are i.ic.hb). The lowered statement launches one kernel,
// _kernel_h_s0_i_ic_fused_hb_block_id_x, for both. With the output reading h, chunked_row's
// rmsnorm_residual would move 5 row-bytes where it moves 6 (its bound 4/5 of the copy, not 2/3).
//   g++ -std=c++17 compute_with_probe.cpp -I.venv/halide/include \
//       -L.venv/lib/python3.11/site-packages/halide/lib64 -lHalide -o probe && ./probe
#include "Halide.h"
#include <cstdio>
using namespace Halide;
int main() {
    ImageParam x(Float(32), 2, "x"), res(Float(32), 2, "res");
    Var i("i"), row("row"), c("c");
    Expr n = x.dim(0).extent();
    const int C = 4096;
    Func hs("hs"); hs(i, row) = x(i, row) + res(i, row);
    RDom rk(0, min(n, C), "rk");
    Expr e2 = min(i * C, max(n - C, 0)) + rk;
    Func part("part"); part(i, row) = 0.0f; part(i, row) += select(e2 >= i * C, hs(e2, row) * hs(e2, row), 0.0f);
    Func h("h"); h(i, row) = hs(i, row);
    Func sumsq("sumsq"); RDom q(0, (n + C - 1) / C, "q"); sumsq(row) = 0.0f; sumsq(row) += part(q, row);
    Func out("out"); out(i, row) = h(i, row) / sqrt(sumsq(row) / cast<float>(n) + 1e-6f);
    // schedule: h's kernel also computes part (compute_with at the block level)
    Var hb("hb"), ic("ic"), ii("ii"), it("it"), pb("pb");
    h.compute_root().split(i, ic, ii, C, TailStrategy::GuardWithIf).split(ii, ii, it, 128).reorder(it, ii, ic, row).fuse(ic, row, hb).gpu_blocks(hb).gpu_threads(it);
    Func k = part.in();
    Var iu("iu"); k.compute_root().split(i, ic, iu, 1).fuse(ic, row, hb).gpu_blocks(hb);
    part.compute_at(k, hb);
    RVar ro("ro"), rt("rt");
    part.update().split(rk, ro, rt, 128).reorder(ro, rt);
    Func pt = part.update().rfactor(rt, it);
    pt.compute_at(k, hb).gpu_threads(it);
    pt.update().gpu_threads(it);
    try {
        k.compute_with(h, hb);
    } catch (CompileError &err) { printf("compute_with error: %s\n", err.what()); }
    sumsq.compute_root().gpu_blocks(row);
    out.split(i, ic, ii, C, TailStrategy::GuardWithIf).split(ii, ii, it, 128).reorder(it, ii, ic, row).fuse(ic, row, hb).gpu_blocks(hb).gpu_threads(it);
    Target t("x86-64-linux-cuda-cuda_capability_86");
    try {
        Pipeline({out, h}).compile_to_lowered_stmt("cw.stmt", {x, res}, Text, t);
        printf("compiled\n");
    } catch (CompileError &err) { printf("compile error: %s\n", err.what()); }
    catch (InternalError &err) { printf("internal error: %s\n", err.what()); }
}
