// Every variant against its float64 reference: fresh random inputs, poisoned outputs, sizes that
// are not multiples of any tile.
#include <gtest/gtest.h>

#include <cmath>
#include <iostream>
#include <random>

#include "fuselab/device.h"
#include "fuselab/dtype.h"
#include "fuselab/error.h"
#include "fuselab/invoke.h"
#include "fuselab/registry.h"
#include "fuselab/workloads.h"
#include "require_cuda.h"

namespace fuselab {
namespace {

std::vector<const Variant *> all_variants() {
    std::vector<const Variant *> out;
    for (const Variant &v : variants()) out.push_back(&v);
    return out;
}

std::string test_name(const testing::TestParamInfo<const Variant *> &info) {
    const Variant &v = *info.param;
    const std::string dtype = v.dtype;
    return std::string(v.pipeline) + "__" + v.schedule + "__" + v.target +
           (dtype == "float32" ? "" : "__" + dtype);
}

class VariantTest : public testing::TestWithParam<const Variant *> {};

TEST_P(VariantTest, MatchesFloat64Reference) {
    const Variant &v = *GetParam();
    if (v.is_cuda()) FUSELAB_REQUIRE_CUDA_DEVICE(v.name() << ": ");
    const Workload &w = find_workload(v.pipeline);
    // A variant may refuse a call in words only under the limit it declares (variant_limit):
    // autoscheduled pipelines are tuned for their estimates and split loops without guards, so at
    // sizes their tiles do not fit they refuse up front, saying what they were built for and what
    // to use instead (never Halide's raw bounds message); a variant that takes a buffer as kernel
    // parameters runs one shape; one that holds a row on chip refuses longer rows only.
    // Each must be right at every size it accepts, and an autoscheduled one must accept its
    // default size.
    const std::string limit = variant_limit(v);
    const Size default_size = v.is_cuda() ? w.cuda_sizes.front() : w.cpu_sizes.front();
    int checked_sizes = 0;
    std::vector<Size> sizes = w.test_sizes;
    if (limit == "autoscheduled") sizes.push_back(default_size);
    for (const Size &size : sizes) {
        const uint64_t seed = std::random_device{}();
        SCOPED_TRACE(v.name() + " size " + format_size(size) + " seed " + std::to_string(seed));
        Buffers buffers = make_buffers(w, size, seed, v.dtype);
        const RefBuffers ref = reference_of(w, buffers, size, v.dtype);
        StorageBuffers stored(w, size, buffers, v.dtype);
        // Twice: the second run sees a poisoned output again, so a stale result cannot pass.
        for (int run = 0; run < 2; run++) {
            stored.poison();
            Bindings args = stored.bind();
            try {
                invoke(v, args);
            } catch (const Refusal &e) {
                const std::string msg = e.what();
                ASSERT_FALSE(limit.empty())
                    << "a refusal from a variant that declares no limit: " << msg;
                if (limit == "autoscheduled") {
                    ASSERT_NE(size, default_size) << "refused its own default size: " << msg;
                    EXPECT_EQ(msg.rfind(v.name() + ": refuses this size: the ", 0), 0u) << msg;
                    EXPECT_NE(msg.find("autoscheduler tuned it for out"), std::string::npos) << msg;
                    EXPECT_NE(msg.find("Use a hand-written schedule"), std::string::npos) << msg;
                    EXPECT_EQ(msg.find("accessed at"), std::string::npos) << msg;
                } else if (limit == "row_length") {
                    ASSERT_GT(size[0], v.row_limit) << msg;
                    EXPECT_NE(msg.find("holds a row on chip"), std::string::npos) << msg;
                } else {
                    EXPECT_NE(msg.find("kernel parameters, so it runs one shape only"),
                              std::string::npos)
                        << msg;
                }
                stored.fetch(v.name());
                for (const auto &kv : ref) {  // refused before anything was written
                    buffers.at(kv.first).for_each_value(
                        [&](float x) { ASSERT_TRUE(std::isnan(x)) << msg; });
                }
                std::cout << "[   NOTE   ] " << v.name() << " refuses size " << format_size(size)
                          << ": " << msg << "\n";
                break;
            }
            if (run == 0) checked_sizes++;
            stored.fetch(v.name());
            for (const auto &kv : ref) {
                const OutputCheck c =
                    check_output(w, size, buffers.at(kv.first), kv.second, v.dtype, kv.first);
                EXPECT_TRUE(c.ok) << "output " << kv.first << " run " << run << ": relative error "
                                  << c.rel_err << " (tolerance " << tolerance_of(w, v.dtype)
                                  << "), " << c.bad_elements << " elements out of bounds, worst "
                                  << c.worst;
            }
        }
    }
    EXPECT_GE(checked_sizes, limit.empty() ? static_cast<int>(w.test_sizes.size()) : 1);
}

// Infinities and large magnitudes, where the math defines the answer: the pointwise pipelines'
// first input gets +-inf, +-1e30 and +-1e4 at every seventh element (relu(inf + b) = inf,
// relu(-inf) = 0, tanh and the sigmoid saturate); the other inputs stay finite, so that no sum is
// inf - inf and no float32 sum overflows.
// (Autoscheduled variants run only their estimates' sizes, which the other test covers.)
std::vector<const Variant *> pointwise_variants() {
    std::vector<const Variant *> out;
    for (const Variant &v : variants()) {
        const std::string p = v.pipeline;
        if ((p == "add_relu" || p == "pointwise_chain" || p == "branches" ||
             p == "branches_indep") &&
            variant_limit(v).empty())
            out.push_back(&v);
    }
    return out;
}

class ExtremeInputTest : public testing::TestWithParam<const Variant *> {};

TEST_P(ExtremeInputTest, InfinitiesAndLargeMagnitudes) {
    const Variant &v = *GetParam();
    const std::string p = v.pipeline;
    if (v.is_cuda()) FUSELAB_REQUIRE_CUDA_DEVICE(v.name() << ": ");
    const Workload &w = find_workload(p);
    const Size size = {4099};
    const uint64_t seed = std::random_device{}();
    SCOPED_TRACE(v.name() + " size 4099 seed " + std::to_string(seed));
    Buffers buffers = make_buffers(w, size, seed);
    const float extremes[] = {INFINITY, -INFINITY, 1e30f, -1e30f, 1e4f, -1e4f};
    Halide::Runtime::Buffer<float> &first = buffers.at(w.shapes(size).front().name);
    for (int i = 0, k = 0; i < size[0]; i += 7, k++) first(i) = extremes[k % 6];
    first.set_host_dirty();
    const RefBuffers ref = w.reference(buffers, size);
    ASSERT_NO_THROW(invoke(v, bind(buffers)));
    for (const auto &kv : ref) {
        auto &out = buffers.at(kv.first);
        if (v.is_cuda()) out.copy_to_host();
        const OutputCheck c = check_output(w, size, out, kv.second);
        EXPECT_TRUE(c.ok) << "output " << kv.first << ": relative error " << c.rel_err << ", "
                          << c.bad_elements << " elements out of bounds, worst " << c.worst;
    }
}

// The row reductions on rows where the math is at its edges, each row its own case: all equal
// (1e4: softmax is 1/N, LayerNorm's deviation is exactly 0), softmax of 1e4 + u (no overflow:
// x - max), RMSNorm of 1e4 + u (no cancellation), a NaN (its row all NaN, as torch), +inf
// (softmax and LayerNorm: NaN; RMSNorm: h inf, out NaN there and 0 elsewhere, as torch).
std::vector<const Variant *> row_variants() {
    std::vector<const Variant *> out;
    for (const Variant &v : variants()) {
        const std::string p = v.pipeline;
        const std::string limit = variant_limit(v);
        if ((p == "softmax" || p == "rmsnorm_residual" || p == "layernorm") &&
            (limit.empty() || limit == "row_length"))
            out.push_back(&v);
    }
    return out;
}

class RowExtremeTest : public testing::TestWithParam<const Variant *> {};

TEST_P(RowExtremeTest, EqualRowsLargeMagnitudesNaNAndInfinity) {
    const Variant &v = *GetParam();
    const std::string p = v.pipeline;
    if (v.is_cuda()) FUSELAB_REQUIRE_CUDA_DEVICE(v.name() << ": ");
    const Workload &w = find_workload(p);
    // 1000: rows of whole aligned 16-byte vectors in every type (float16's hardware conversions on
    // CUDA); 1001: element by element (its conversions through the bits: storage.h); 33 x 37: the
    // CPU's short rows, whose statistics lane_rows takes 16 rows at a time (rows_common.h:
    // cpu_lane_stat), two whole vectors of rows and 5 more; 2048 to 16384: the CUDA staged forms'
    // exact kernels (rows_forms.h: Form::exact), N a constant there. A strategy that holds a row
    // on chip runs the rows it takes (VariantTest checks its refusals).
    for (const Size &size : {Size{1000, 5}, Size{1001, 5}, Size{33, 37}, Size{2048, 5},
                             Size{4096, 5}, Size{8192, 5}, Size{16384, 5}}) {
        if (v.row_limit > 0 && size[0] > v.row_limit) continue;
        const uint64_t seed = std::random_device{}();
        SCOPED_TRACE(v.name() + " size " + format_size(size) + " seed " + std::to_string(seed));
        Buffers buffers = make_buffers(w, size, seed, v.dtype);
        Halide::Runtime::Buffer<float> &x = buffers.at("x");
        for (int n = 0; n < size[0]; n++) {
            x(n, 1) = 1e4f;  // a value of every storage type
            if (p != "layernorm") x(n, 2) = round_to(1e4f + x(n, 2), v.dtype);
        }
        x(3, 3) = NAN;
        x(10, 4) = INFINITY;
        x.set_host_dirty();
        const RefBuffers ref = reference_of(w, buffers, size, v.dtype);
        StorageBuffers stored(w, size, buffers, v.dtype);
        stored.poison();
        ASSERT_NO_THROW(invoke(v, stored.bind()));
        stored.fetch(v.name());
        for (const auto &kv : ref) {
            const OutputCheck c =
                check_output(w, size, buffers.at(kv.first), kv.second, v.dtype, kv.first);
            EXPECT_TRUE(c.ok) << "output " << kv.first << ": relative error " << c.rel_err << ", "
                              << c.bad_elements << " elements out of bounds, worst " << c.worst;
        }
    }
}

INSTANTIATE_TEST_SUITE_P(AllVariants, VariantTest, testing::ValuesIn(all_variants()), test_name);
INSTANTIATE_TEST_SUITE_P(Rows, RowExtremeTest, testing::ValuesIn(row_variants()), test_name);
INSTANTIATE_TEST_SUITE_P(Pointwise, ExtremeInputTest, testing::ValuesIn(pointwise_variants()),
                         test_name);

}  // namespace
}  // namespace fuselab
