// Loop shapes shared by the 3x3-convolution strategies (conv_relu_pool, two_convs): the GPU tile
// of output pixels x channels a thread, the 3x3xC reduction held in registers for such a tile,
// and the copy of a block's weights into shared memory.
#pragma once

#include "Halide.h"

namespace fuselab::conv {

using namespace Halide;

// The names of the loops that `thread_tiles` makes, for compute_at.
inline Var thread_var() {
    return Var("xi");
}
inline Var block_var() {
    return Var("xo");
}

// s(x, y, k) in CUDA threads of `px` x `py` pixels x `kb` channels, tx x ty threads a block,
// the channel blocks outermost in the grid. The channel tail is `k_tail`; the pixel tails are
// guarded.
inline void thread_tiles(Stage s, const Var &x, const Var &y, const Var &k, int kb, int px, int tx,
                         int ty, TailStrategy k_tail, int py = 1) {
    Var xo = block_var(), xi = thread_var(), yo{"yo"}, yi{"yi"}, ko{"ko"}, ki{"ki"}, xp{"xp"},
        yp{"yp"};
    s.split(k, ko, ki, kb, k_tail).split(x, x, xp, px, TailStrategy::GuardWithIf);
    if (py > 1) s.split(y, y, yp, py, TailStrategy::GuardWithIf);
    s.gpu_tile(x, y, xo, yo, xi, yi, tx, ty, TailStrategy::GuardWithIf);
    if (py > 1) {
        s.reorder(ki, xp, yp, xi, yi, xo, yo, ko).unroll(yp);
    } else {
        s.reorder(ki, xp, xi, yi, xo, yo, ko);
    }
    s.gpu_blocks(ko).unroll(xp).unroll(ki);
}

// acc(x, y, k) = 0; acc(x, y, k) += ... over r = (kx, ky, c): computed per iteration of `at` for
// an ex x ey x ek tile in registers (ey 0: acc's footprint in y, which must then be constant).
// Storage and unrolled loops of constant size, guarded, keep every accumulator index constant (so
// in registers) also where the image or channel edge cuts a tile; the 3x3 taps are unrolled, the
// channels loop.
inline void register_tile(Func acc, const RDom &r, const Var &x, const Var &y, const Var &k,
                          const LoopLevel &at, int ex, int ek, int ey = 0) {
    if (ey > 0) acc.bound_extent(y, ey);
    acc.compute_at(at)
        .bound_storage(k, ek)
        .bound_extent(x, ex)
        .store_in(MemoryType::Register)
        .reorder(k, x, y)
        .unroll(x, ex, TailStrategy::GuardWithIf)
        .unroll(y)
        .unroll(k, ek, TailStrategy::GuardWithIf);
    acc.update()
        .reorder(k, x, y, r.x, r.y, r.z)
        .unroll(k, ek, TailStrategy::GuardWithIf)
        .unroll(x, ex, TailStrategy::GuardWithIf)
        .unroll(y)
        .unroll(r.x)
        .unroll(r.y);
}

// weights(kx, ky, c, k) copied per block (at `at`) into shared memory, k innermost, so that a
// tap's channels are read as broadcast 16-byte shared loads. The copy runs on the block's own
// tx x ty threads (Halide would otherwise widen the block to the copy's shape).
inline void weights_in_shared(Func w, const LoopLevel &at, int tx, int ty) {
    const std::vector<Var> a = w.args();  // x, y, c, k
    Var t{"t"}, to{"to"}, tx_{"tx"}, ty_{"ty"};
    w.compute_at(at)
        .store_in(MemoryType::GPUShared)
        .reorder_storage(a[3], a[0], a[1], a[2])
        .reorder(a[3], a[0], a[1], a[2])
        .fuse(a[3], a[0], t)
        .fuse(t, a[1], t)
        .fuse(t, a[2], t)
        .split(t, to, t, tx * ty, TailStrategy::GuardWithIf)
        .split(t, ty_, tx_, tx)
        .reorder(tx_, ty_, to)
        .gpu_threads(tx_, ty_);
}

// The CPU register tile: acc computed at `at` over one vector of columns x 2 rows x kb channels,
// its extents fixed (bound_extent, bound_storage) and its channel, row and 3x3 tap loops unrolled,
// so that the 2 kb accumulator vectors stay in registers over the 3x3xC taps.
inline void cpu_register_tile(Func acc, const RDom &r, const Var &x, const Var &y, const Var &k,
                              const LoopLevel &at, int lanes, int kb) {
    acc.compute_at(at)
        .bound_storage(k, kb)
        .bound_extent(x, lanes)
        .bound_extent(y, 2)
        .reorder(x, k, y)
        .vectorize(x)
        .unroll(k, kb, TailStrategy::GuardWithIf)
        .unroll(y);
    acc.update()
        .reorder(x, k, y, r.x, r.y, r.z)
        .vectorize(x, lanes)
        .unroll(k, kb, TailStrategy::GuardWithIf)
        .unroll(y)
        .unroll(r.x)
        .unroll(r.y);
}

}  // namespace fuselab::conv
