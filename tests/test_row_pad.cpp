// generators/row_pad.h, the padded rows of the CUDA row forms, JIT-compiled for the host: the
// padded extent (a rung of the ladder, or a multiple of the unit), the index each padded position
// reads (always inside the row), and the statistics' mask (in_padded_row), which must say "in the
// row" for exactly the row's n elements, and on aligned rows must fold to one test a vector (the
// per-element form kept a predicate an element across layernorm's passes, s37).
#include <gtest/gtest.h>

#include "../generators/row_pad.h"

namespace {

using namespace Halide;
using namespace Halide::Internal;

// For every n in [1, max_n] (each a multiple of V where `aligned`) and every position of its
// padded domain: the padded extent, the index read and the mask, evaluated by the JIT.
struct Table {
    Buffer<int32_t> extent, index;
    Buffer<bool> in_row;
};

Table evaluate(int V, bool aligned, int unit, int limit, int max_n, int max_p) {
    Var i("i"), k("k");
    const Expr n = aligned ? (k + 1) * V : k + 1;
    const Expr a = cast<bool>(aligned);
    Func extent("extent"), index("index"), in_row("in_row");
    extent(k) = fuselab::padded_extent(n, unit, limit);
    index(i, k) = fuselab::padded_index(i, n, V, a);
    in_row(i, k) = fuselab::in_padded_row(i, n, V, a);
    const int rows = aligned ? max_n / V : max_n;
    return {extent.realize({rows}), index.realize({max_p, rows}), in_row.realize({max_p, rows})};
}

void check(int V, bool aligned, int unit, int limit, int max_n) {
    const int max_p = ((max_n + unit - 1) / unit) * unit;
    const Table t = evaluate(V, aligned, unit, limit, max_n, max_p);
    for (int k = 0; k < t.extent.dim(0).extent(); k++) {
        const int n = aligned ? (k + 1) * V : k + 1;
        const int p = t.extent(k);
        int rung = unit;
        while (rung < n) rung += unit;
        ASSERT_EQ(p, rung) << "n = " << n;  // the smallest multiple of the unit at or above n
        for (int i = 0; i < p; i++) {
            ASSERT_EQ(t.in_row(i, k), i < n)
                << "V = " << V << ", aligned " << aligned << ", n = " << n << ", i = " << i;
            const int read = t.index(i, k);
            ASSERT_TRUE(read >= 0 && read < n) << "n = " << n << ", i = " << i << " reads " << read;
            if (i < n) {
                ASSERT_EQ(read, i);
            } else if (aligned) {  // past n an aligned row re-reads its last vector, lane for lane
                ASSERT_EQ(read, n - V + i % V);
            }
        }
    }
}

TEST(RowPad, TheMaskAndTheIndexOfEveryPaddedPosition) {
    for (int V : {4, 8}) {
        check(V, true, 256, 1024, 1536);
        check(V, false, 256, 1024, 1100);
    }
    check(8, true, 4096, 8192, 8192 + 64);
}

// On an aligned row, the mask of a V-lane vector at a multiple of V is one scalar test, broadcast:
// the simplifier proves the vector's base a multiple of V.
TEST(RowPad, TheAlignedMaskIsOneTestAVector) {
    const int V = 8;
    const Expr n = Variable::make(Int(32), "n"), t = Variable::make(Int(32), "t");
    const Expr lanes = Ramp::make(t * V, 1, V);
    const Expr aligned = simplify(fuselab::in_padded_row(lanes, n, V, const_true()));
    EXPECT_NE(aligned.as<Broadcast>(), nullptr) << aligned;
    // Elsewhere an element at a time.
    const Expr odd = simplify(fuselab::in_padded_row(lanes, n, V, const_false()));
    EXPECT_EQ(odd.as<Broadcast>(), nullptr) << odd;
}

}  // namespace
