// The lean call (call_plan.h): the same answers as Halide's own call, and every refusal in
// validate()'s words, naming the variant and the argument at fault.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <random>

#include "HalideBuffer.h"
#include "fuselab/call_plan.h"
#include "fuselab/error.h"
#include "fuselab/invoke.h"
#include "fuselab/registry.h"

namespace fuselab {
namespace {

using Halide::Runtime::Buffer;

template <typename F>
std::string error_of(F f) {
    try {
        f();
    } catch (const Error &e) {
        return e.what();
    }
    ADD_FAILURE() << "no Error thrown";
    return "";
}

struct AddRelu {
    const Variant &v = find_variant("add_relu", "fused", "cpu");
    const CallPlan &plan = call_plan(v);
    // Sizes no vector or tile divides; fresh random inputs, a poisoned output.
    Buffer<float> a{1031}, b{1031}, out{1031};
    AddRelu() {
        std::mt19937 rng(std::random_device{}());
        std::uniform_real_distribution<float> u(-1.0f, 1.0f);
        for (int i = 0; i < a.width(); i++) a(i) = u(rng), b(i) = u(rng), out(i) = NAN;
    }
    // The buffers in the plan's order.
    void call(halide_buffer_t *pa, halide_buffer_t *pb, halide_buffer_t *po, bool fresh = false) {
        halide_buffer_t *args[3];
        args[plan.index("a")] = pa, args[plan.index("b")] = pb, args[plan.index("out")] = po;
        plan.invoke(args, nullptr, fresh);
    }
    std::string validate_error(halide_buffer_t *pa, halide_buffer_t *pb, halide_buffer_t *po) {
        return error_of([&] { validate(v, {{"a", pa}, {"b", pb}, {"out", po}}); });
    }
};

TEST(CallPlan, ComputesWhatHalidesOwnCallDoes) {
    AddRelu t;
    ASSERT_TRUE(t.plan.lean());
    EXPECT_EQ(t.plan.num_args(), 3);
    EXPECT_EQ(t.plan.index("nonsense"), -1);
    t.call(t.a.raw_buffer(), t.b.raw_buffer(), t.out.raw_buffer());
    for (int i = 0; i < t.a.width(); i++)
        ASSERT_EQ(t.out(i), std::max(t.a(i) + t.b(i), 0.0f)) << "at " << i;
}

TEST(CallPlan, RefusesInValidatesWords) {
    AddRelu t;
    Buffer<int32_t> wrong_type(1031);
    Buffer<float> wrong_rank(1031, 2);
    const std::vector<std::pair<std::string, std::array<halide_buffer_t *, 3>>> cases = {
        {"input 'b' has type int32",
         {t.a.raw_buffer(), wrong_type.raw_buffer(), t.out.raw_buffer()}},
        {"output 'out' has rank 2", {t.a.raw_buffer(), t.b.raw_buffer(), wrong_rank.raw_buffer()}},
        {"missing input 'a'", {nullptr, t.b.raw_buffer(), t.out.raw_buffer()}},
        {"output 'out' shares memory with input 'a'",
         {t.a.raw_buffer(), t.b.raw_buffer(), t.a.raw_buffer()}},
    };
    for (const auto &c : cases) {
        const std::string &words = c.first;
        const std::array<halide_buffer_t *, 3> &bufs = c.second;  // (no lambda captures a binding)
        const std::string msg = error_of([&] { t.call(bufs[0], bufs[1], bufs[2]); });
        EXPECT_NE(msg.find("add_relu/fused/cpu: " + words), std::string::npos) << msg;
        EXPECT_EQ(msg, t.validate_error(bufs[0], bufs[1], bufs[2]));
    }
    // Nothing was written.
    for (int i = 0; i < t.out.width(); i++) ASSERT_TRUE(std::isnan(t.out(i))) << "at " << i;
}

TEST(CallPlan, FreshOutputsSkipOnlyTheOverlapCheck) {
    AddRelu t;
    Buffer<int32_t> wrong_type(1031);
    // The caller's word that the output is fresh skips the overlap test (an elementwise
    // add_relu in place is still right) ...
    Buffer<float> a0 = t.a.copy();
    t.call(t.a.raw_buffer(), t.b.raw_buffer(), t.a.raw_buffer(), true);
    for (int i = 0; i < t.a.width(); i++) ASSERT_EQ(t.a(i), std::max(a0(i) + t.b(i), 0.0f));
    // ... and nothing else.
    const std::string msg = error_of(
        [&] { t.call(t.a.raw_buffer(), wrong_type.raw_buffer(), t.out.raw_buffer(), true); });
    EXPECT_NE(msg.find("input 'b' has type int32"), std::string::npos) << msg;
}

}  // namespace
}  // namespace fuselab
