// generators/storage.h's conversions and order keys, JIT-compiled for this CPU in 16-lane vectors,
// against the host conversions of runtime/fuselab/dtype.h (tested exhaustively in test_dtype.cpp).
// softmax's CUDA float16 register forms widen and round through half_bits_to_float and
// float_to_half_bits on unaligned rows (their half_route param; the other CUDA variants convert
// by the hardware), which the CPU variants do not use (they take the native casts), so this is
// where CI checks them:
// every float16 value widened, every 256th float32 bit pattern and every float16 tie (and its
// neighbours) rounded, and every 16-bit value of both 16-bit types ordered by its key.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <vector>

#include "../generators/storage.h"
#include "fuselab/dtype.h"

namespace {

using namespace Halide;

// f over `in`, computed in vectors of 16 lanes (with a scalar tail) for the host.
template <typename Out, typename In>
Buffer<Out> jit(const std::vector<In> &in, const std::function<Expr(Expr)> &f) {
    Buffer<In> input(int(in.size()));
    std::copy(in.begin(), in.end(), input.data());
    Var i{"i"};
    Func g{"g"};
    g(i) = f(input(i));
    g.vectorize(i, 16, TailStrategy::GuardWithIf);
    return g.realize({int(in.size())}, get_jit_target_from_environment());
}

bool is_nan16(uint16_t h) {
    return (h & 0x7c00) == 0x7c00 && (h & 0x3ff) != 0;
}

TEST(StorageBits, EveryFloat16WidensExactly) {
    std::vector<uint16_t> all(1 << 16);
    for (int h = 0; h < (1 << 16); h++) all[h] = uint16_t(h);
    Buffer<uint32_t> got = jit<uint32_t>(
        all, [](Expr h) { return reinterpret(UInt(32), fuselab::half_bits_to_float(h)); });
    for (int h = 0; h < (1 << 16); h++) {
        const float want = fuselab::float16_to_float(uint16_t(h));
        if (std::isnan(want)) {
            ASSERT_TRUE(std::isnan(fuselab::bits_float(got(h)))) << std::hex << h;
        } else {
            ASSERT_EQ(got(h), fuselab::float_bits(want)) << std::hex << h;
        }
    }
}

TEST(StorageBits, Float32RoundsToFloat16AsTheHostDoes) {
    std::vector<uint32_t> in;
    for (uint64_t u = 0; u < (uint64_t(1) << 32); u += 256) in.push_back(uint32_t(u) | 0x5a);
    for (int h = 0; h < 0x7c00; h++) {  // each tie between two finite halves, and its neighbours
        const float lo = fuselab::float16_to_float(uint16_t(h));
        const float hi = h == 0x7bff ? 65536.0f : fuselab::float16_to_float(uint16_t(h + 1));
        const uint32_t mid = fuselab::float_bits((lo + hi) / 2);  // exact: a float32 value
        for (uint32_t m : {mid - 1, mid, mid + 1}) {
            in.push_back(m);
            in.push_back(m | 0x80000000u);
        }
    }
    Buffer<uint16_t> got = jit<uint16_t>(
        in, [](Expr u) { return fuselab::float_to_half_bits(reinterpret(Float(32), u)); });
    for (size_t k = 0; k < in.size(); k++) {
        const uint16_t want = fuselab::float_to_float16(fuselab::bits_float(in[k]));
        if (is_nan16(want)) {
            ASSERT_TRUE(is_nan16(got(int(k)))) << std::hex << in[k];
        } else {
            ASSERT_EQ(got(int(k)), want) << std::hex << in[k];
        }
    }
}

// Keys in value order, -0 below +0, every NaN above +inf, and from_order_key the inverse.
void check_keys(const Type &t, float (*to_float)(uint16_t)) {
    std::vector<uint16_t> all(1 << 16);
    for (int h = 0; h < (1 << 16); h++) all[h] = uint16_t(h);
    Buffer<int32_t> key =
        jit<int32_t>(all, [&](Expr h) { return fuselab::order_key(reinterpret(t, h)); });
    Buffer<uint16_t> back =
        jit<uint16_t>(std::vector<int32_t>(key.begin(), key.end()),
                      [&](Expr k) { return reinterpret(UInt(16), fuselab::from_order_key(k, t)); });
    std::vector<int> finite;
    for (int h = 0; h < (1 << 16); h++) {
        if (std::isnan(to_float(uint16_t(h)))) {
            ASSERT_EQ(key(h), 0x7fffffff) << std::hex << h;
        } else {
            finite.push_back(h);
            ASSERT_EQ(back(h), h) << std::hex << h;
        }
    }
    auto value = [&](int h) {  // -0 below +0
        const float v = to_float(uint16_t(h));
        return std::make_pair(v, v == 0 && !(h & 0x8000));
    };
    std::sort(finite.begin(), finite.end(), [&](int a, int b) { return value(a) < value(b); });
    for (size_t k = 1; k < finite.size(); k++) {
        ASSERT_LT(key(finite[k - 1]), key(finite[k]))
            << std::hex << finite[k - 1] << " " << finite[k];
    }
    ASSERT_EQ(key(finite.back()), fuselab::order_key_pos_inf(t));
    ASSERT_EQ(key(finite.front()), fuselab::order_key_neg_inf(t));
}

TEST(StorageBits, Float16KeysOrderEveryValue) {
    check_keys(Float(16), fuselab::float16_to_float);
}

TEST(StorageBits, Bfloat16KeysOrderEveryValue) {
    check_keys(UInt(16), fuselab::bfloat16_to_float);
}

}  // namespace
