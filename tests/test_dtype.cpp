// The storage types on the host (fuselab/dtype.h) and in .npy files (fuselab/io.h): every
// float16 and bfloat16 value survives float32 and back, ties round to even, NaN stays NaN, and
// '<f2' / '<u2' files read back what was written.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <random>

#include "fuselab/dtype.h"
#include "fuselab/error.h"
#include "fuselab/io.h"
#include "fuselab/registry.h"

namespace fuselab {
namespace {

bool is_nan16(uint16_t h, bool bf16) {
    return bf16 ? (h & 0x7fff) > 0x7f80 : (h & 0x7fff) > 0x7c00;
}

void round_trips(bool bf16) {
    for (uint32_t h = 0; h < 0x10000; h++) {
        const float f = bf16 ? bfloat16_to_float(uint16_t(h)) : float16_to_float(uint16_t(h));
        const uint16_t back = bf16 ? float_to_bfloat16(f) : float_to_float16(f);
        if (is_nan16(uint16_t(h), bf16)) {
            ASSERT_TRUE(std::isnan(f)) << h;
            ASSERT_TRUE(is_nan16(back, bf16)) << h;
            continue;
        }
        ASSERT_EQ(back, h) << (bf16 ? "bfloat16 " : "float16 ") << std::hex << h;
    }
}

TEST(Dtype, EveryValueRoundTrips) {
    round_trips(true);
    round_trips(false);
}

// Halfway between two neighbours (exact in float32) goes to the one with an even last bit; a
// hair above goes up. Covers subnormals, the largest finite values and the carry into the
// exponent.
void ties_to_even(bool bf16) {
    const uint32_t top = bf16 ? 0x7f7f : 0x7bff;  // below the largest finite value's successor
    for (uint32_t h = 0; h < top; h++) {
        const auto wide = [&](uint32_t b) {
            return bf16 ? bfloat16_to_float(uint16_t(b)) : float16_to_float(uint16_t(b));
        };
        const auto narrow = [&](float f) { return bf16 ? float_to_bfloat16(f) : float_to_float16(f); };
        const double lo = wide(h), hi = wide(h + 1), mid = (lo + hi) / 2;
        ASSERT_EQ(double(float(mid)), mid);
        const uint32_t even = (h & 1) ? h + 1 : h;
        ASSERT_EQ(narrow(float(mid)), even) << std::hex << h;
        ASSERT_EQ(narrow(std::nextafter(float(mid), INFINITY)), h + 1) << std::hex << h;
        ASSERT_EQ(narrow(-float(mid)), even | 0x8000) << std::hex << h;
    }
    // Past the largest finite value by half a unit or more: infinity.
    EXPECT_EQ(float_to_float16(65520.0f), 0x7c00);
    EXPECT_EQ(float_to_float16(65519.0f), 0x7bff);
    EXPECT_EQ(float_to_bfloat16(INFINITY), 0x7f80);
    EXPECT_EQ(float_to_bfloat16(-INFINITY), 0xff80);
}

TEST(Dtype, TiesGoToEven) {
    ties_to_even(true);
    ties_to_even(false);
}

TEST(Dtype, NamesAndHalideTypes) {
    EXPECT_STREQ(dtype_of(dtype_type("bfloat16")), "bfloat16");
    EXPECT_STREQ(dtype_of(dtype_type("float16")), "float16");
    EXPECT_STREQ(dtype_of(dtype_type("float32")), "float32");
    EXPECT_STREQ(dtype_of(halide_type_t(halide_type_int, 32)), "");
    EXPECT_THROW(dtype_type("float64"), Error);
}

// A file of each storage type: values of the type written and read back exactly, with the
// type named; a reader that did not ask for the type refuses '<f2' and '<u2' files.
TEST(Dtype, NpyFilesCarryTheType) {
    std::mt19937 rng(std::random_device{}());
    std::uniform_real_distribution<float> u(-100, 100);
    for (const std::string dtype : {"float32", "bfloat16", "float16"}) {
        Halide::Runtime::Buffer<float> a(37, 5);
        a.for_each_value([&](float &v) { v = round_to(u(rng), dtype); });
        a(3, 2) = NAN;
        a(4, 2) = -INFINITY;
        const std::string path = ::testing::TempDir() + "dtype_" + dtype + ".npy";
        write_array(a, path, dtype);
        std::string stored;
        Halide::Runtime::Buffer<float> b = read_array(path, &stored);
        EXPECT_EQ(stored, dtype);
        ASSERT_EQ(b.dim(0).extent(), 37);
        ASSERT_EQ(b.dim(1).extent(), 5);
        a.for_each_element([&](int x, int y) {
            if (std::isnan(a(x, y))) {
                EXPECT_TRUE(std::isnan(b(x, y)));
            } else {
                EXPECT_EQ(a(x, y), b(x, y)) << dtype << " at " << x << "," << y;
            }
        });
        if (dtype != "float32") {
            try {
                read_array(path);
                ADD_FAILURE() << "a float32 reader accepted " << dtype;
            } catch (const Error &e) {
                EXPECT_NE(std::string(e.what()).find("expected float32"), std::string::npos) << e.what();
            }
        }
        std::remove(path.c_str());
    }
}

}  // namespace
}  // namespace fuselab
