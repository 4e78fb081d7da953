// The runtime's promises about bad input: a clear error naming the variant and the problem,
// never an abort, never a silently wrong answer. And timing: what each measure fills in.
#include <gtest/gtest.h>

#include <iostream>

#include "fuselab/device.h"
#include "fuselab/error.h"
#include "fuselab/invoke.h"
#include "fuselab/registry.h"
#include "fuselab/timing.h"
#include "fuselab/workloads.h"
#include "require_cuda.h"

namespace fuselab {
namespace {

using Halide::Runtime::Buffer;

// Runs f, which must throw Error; returns its message.
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

const Variant &cpu_add_relu() {
    return find_variant("add_relu", "fused", "cpu");
}

// The error message of a conv_relu_pool variant (tiled/cpu unless named) on these buffers.
std::string conv_error(Buffer<float> &input, Buffer<float> &weights, Buffer<float> &bias,
                       Buffer<float> &out,
                       const Variant &v = find_variant("conv_relu_pool", "tiled", "cpu")) {
    return error_of([&] {
        invoke(v, {{"input", input.raw_buffer()},
                   {"weights", weights.raw_buffer()},
                   {"bias", bias.raw_buffer()},
                   {"out", out.raw_buffer()}});
    });
}

TEST(Runtime, UnknownVariantListsWhatExists) {
    const std::string msg = error_of([] { find_variant("add_relu", "nonsense", "cpu"); });
    EXPECT_NE(msg.find("unknown variant add_relu/nonsense/cpu"), std::string::npos) << msg;
    EXPECT_NE(msg.find("fused"), std::string::npos) << msg;
    const std::string msg2 = error_of([] { find_variant("no_such_pipeline", "fused", "cpu"); });
    EXPECT_NE(msg2.find("no pipeline 'no_such_pipeline'"), std::string::npos) << msg2;
}

// Registration (what a second registry claiming a built variant's name meets): refused in words,
// the registry unchanged, and every registered variant found by its own names.
TEST(Runtime, ANameRegisteredTwiceIsRefused) {
    const size_t before = variants().size();
    ASSERT_GT(before, 1u);
    const Variant first = variants().front(), last = variants().back();
    for (const Variant &v : {first, last}) {
        const std::string msg = error_of([&] { register_variants(&v, 1); });
        EXPECT_NE(msg.find("variant " + v.name() + " is registered twice"), std::string::npos)
            << msg;
    }
    EXPECT_EQ(variants().size(), before);
    for (const Variant &v : variants())
        EXPECT_EQ(&find_variant(v.pipeline, v.schedule, v.target, v.dtype), &v);
}

TEST(Runtime, WrongRank) {
    Buffer<float> a(16, 2), b(16), out(16);
    const std::string msg = error_of([&] {
        invoke(cpu_add_relu(),
               {{"a", a.raw_buffer()}, {"b", b.raw_buffer()}, {"out", out.raw_buffer()}});
    });
    EXPECT_NE(msg.find("add_relu/fused/cpu: input 'a' has rank 2, expected 1"), std::string::npos)
        << msg;
}

TEST(Runtime, WrongType) {
    Buffer<float> a(16), out(16);
    Buffer<int32_t> b(16);
    const std::string msg = error_of([&] {
        invoke(cpu_add_relu(),
               {{"a", a.raw_buffer()}, {"b", b.raw_buffer()}, {"out", out.raw_buffer()}});
    });
    EXPECT_NE(msg.find("add_relu/fused/cpu: input 'b' has type int32, expected float32"),
              std::string::npos)
        << msg;
}

TEST(Runtime, TooSmallOutputIsAnErrorNotACrop) {
    Buffer<float> a(16), b(16), out(15);
    out.fill(-7.0f);
    const std::string msg = error_of([&] {
        invoke(cpu_add_relu(),
               {{"a", a.raw_buffer()}, {"b", b.raw_buffer()}, {"out", out.raw_buffer()}});
    });
    EXPECT_NE(msg.find("add_relu/fused/cpu"), std::string::npos) << msg;
    EXPECT_NE(msg.find("Output buffer out"), std::string::npos) << msg;
    EXPECT_NE(msg.find("access out of bounds"), std::string::npos) << msg;
    out.for_each_value([](float v) { EXPECT_EQ(v, -7.0f); });  // nothing written
}

TEST(Runtime, MismatchedInputsAreAnError) {
    Buffer<float> input(20, 10, 3), weights(3, 3, 4, 16), bias(16), out(10, 5, 16);
    const std::string msg = conv_error(input, weights, bias, out);
    EXPECT_NE(msg.find("conv_relu_pool/tiled/cpu"), std::string::npos) << msg;
    EXPECT_NE(msg.find("weights"), std::string::npos) << msg;
}

TEST(Runtime, NonDenseWeightsAreAnError) {
    // The conv schedules address the weights as PyTorch's contiguous [k][c][ky][kx]; the same
    // shape stored channel-major is refused, not read wrongly.
    Buffer<float> input(20, 10, 3), weights({3, 3, 3, 16}, {0, 1, 3, 2}), bias(16), out(10, 5, 16);
    out.fill(-7.0f);
    const std::string msg = conv_error(input, weights, bias, out);
    EXPECT_NE(msg.find("conv_relu_pool/tiled/cpu"), std::string::npos) << msg;
    EXPECT_NE(msg.find("weights.stride"), std::string::npos) << msg;
    out.for_each_value([](float v) { EXPECT_EQ(v, -7.0f); });
}

TEST(Runtime, HandWrittenConvRefusesWhatHalideWould) {
    // The nvcc-built kernels check shapes themselves: the same refusals as the generator's, named.
    FUSELAB_REQUIRE_CUDA_DEVICE("");
    for (const char *s : {"hand_const", "hand_global"}) {
        const Variant &v = find_variant("conv_relu_pool", s, "cuda");
        const std::string lib = std::string("conv_relu_pool__") + s + "__cuda";
        Buffer<float> input(20, 10, 3), weights(3, 3, 4, 16), bias(16), out(10, 5, 16);
        std::string msg = conv_error(input, weights, bias, out, v);
        EXPECT_NE(msg.find(lib + ": extents must be"), std::string::npos) << msg;
        Buffer<float> dense_w(3, 3, 3, 16), small_out(9, 5, 16);
        msg = conv_error(input, dense_w, bias, small_out, v);
        EXPECT_NE(msg.find(lib + ": extents must be"), std::string::npos) << msg;
        Buffer<float> cm_w({3, 3, 3, 16}, {0, 1, 3, 2});
        out.fill(-7.0f);
        msg = conv_error(input, cm_w, bias, out, v);
        EXPECT_NE(msg.find(lib + ": x must be dense and weights in PyTorch's"), std::string::npos)
            << msg;
        out.for_each_value([](float x) { EXPECT_EQ(x, -7.0f); });  // nothing written
    }
}

TEST(Runtime, MissingAndUnknownArguments) {
    Buffer<float> a(16), b(16), out(16);
    std::string msg = error_of([&] {
        invoke(cpu_add_relu(), {{"a", a.raw_buffer()}, {"out", out.raw_buffer()}});
    });
    EXPECT_NE(msg.find("add_relu/fused/cpu: missing input 'b'; it takes a, b, out"),
              std::string::npos)
        << msg;
    msg = error_of([&] {
        invoke(cpu_add_relu(), {{"a", a.raw_buffer()},
                                {"b", b.raw_buffer()},
                                {"out", out.raw_buffer()},
                                {"c", b.raw_buffer()}});
    });
    EXPECT_NE(msg.find("unknown argument 'c'"), std::string::npos) << msg;
}

TEST(Runtime, CudaVariantWithoutDeviceSaysWhy) {
    if (cuda_status().usable)
        GTEST_SKIP() << "a CUDA device is usable here: " << cuda_status().device;
    bool cuda_built = false;
    for (const Variant &v : variants()) cuda_built |= v.is_cuda();
    if (!cuda_built) FUSELAB_CUDA_SKIP("this build has no CUDA variants (FUSELAB_CUDA=OFF)");
    Buffer<float> a(16), b(16), out(16);
    const std::string msg = error_of([&] {
        invoke(find_variant("add_relu", "fused", "cuda"),
               {{"a", a.raw_buffer()}, {"b", b.raw_buffer()}, {"out", out.raw_buffer()}});
    });
    EXPECT_NE(msg.find("add_relu/fused/cuda: no usable CUDA device: "), std::string::npos) << msg;
    EXPECT_FALSE(cuda_status().reason.empty());
}

// A strategy that holds a row on chip declares its longest row (row_limit); validate() (and
// check()) refuses one element more in words, naming the variant and the input, before any device
// work, and takes a row at the limit (and, with a device, computes it right). validate() checks the
// limit before it looks for a device.
TEST(Runtime, RowLimitRefusesLongerRowsInWords) {
    int limited = 0;
    bool cuda_built = false;
    for (const Variant &v : variants()) {
        cuda_built |= v.is_cuda();
        if (v.row_limit <= 0) continue;
        limited++;
        EXPECT_EQ(variant_limit(v), "row_length") << v.name();
        const Workload &w = find_workload(v.pipeline);
        const int most = int(v.row_limit);
        for (const int n : {most, most + 1}) {
            SCOPED_TRACE(v.name() + " N = " + std::to_string(n));
            Buffers values = make_buffers(w, {n, 3}, 1, v.dtype);
            StorageBuffers stored(w, {n, 3}, values, v.dtype);
            std::string refusal;
            try {
                validate(v, stored.bind());
            } catch (const Refusal &e) {
                refusal = e.what();
            } catch (const Error &) {  // no usable CUDA device here: checked after the limit
            }
            // check() (choose()'s form, no exceptions) finds the same refusal in the same words.
            const Problem p = check(v, stored.bind());
            EXPECT_EQ(p.refusal, !refusal.empty()) << p.what;
            if (p.refusal) {
                EXPECT_EQ(p.what, refusal);
            }
            if (n == most) {
                EXPECT_EQ(refusal, "");
                // The kernel's own bound (rows_forms.h: kStagedBytes) is at least the declared one.
                if (!cuda_status().usable) continue;
                const RefBuffers ref = reference_of(w, values, {n, 3}, v.dtype);
                stored.poison();
                invoke(v, stored.bind());
                stored.fetch(v.name());
                for (const auto &kv : ref) {
                    const OutputCheck c =
                        check_output(w, {n, 3}, values.at(kv.first), kv.second, v.dtype, kv.first);
                    EXPECT_TRUE(c.ok) << kv.first << ": " << c.bad_elements << " out of bounds";
                }
            } else {
                EXPECT_EQ(
                    refusal.rfind(
                        v.name() + ": input 'x' has rows of " + std::to_string(n) + " elements", 0),
                    0u)
                    << refusal;
                EXPECT_NE(refusal.find("holds a row on chip"), std::string::npos) << refusal;
            }
        }
    }
    if (!cuda_built) FUSELAB_CUDA_SKIP("this build has no CUDA variants (FUSELAB_CUDA=OFF)");
    EXPECT_GT(limited, 0) << "no variant declares a row_limit (the staged strategies do)";
}

TEST(Runtime, MisalignedDeviceViewIsRefused) {
    // A view into device memory at an offset that is not a multiple of 16 bytes would make a
    // kernel's vector access fault: refused before any launch, the output untouched.
    FUSELAB_REQUIRE_CUDA_DEVICE("");
    Buffer<float> a(1001), b(1001), whole(1002);
    a.fill(1.0f);
    b.fill(2.0f);
    whole.fill(-7.0f);
    to_device(whole.raw_buffer(), "whole");
    halide_dimension_t dim(0, 1001, 1);
    halide_buffer_t out{};
    out.type = halide_type_of<float>();
    out.dimensions = 1;
    out.dim = &dim;
    out.device = whole.raw_buffer()->device + 4;  // element 1
    out.device_interface = whole.raw_buffer()->device_interface;
    const std::string msg = error_of([&] {
        invoke(find_variant("add_relu", "fused", "cuda"),
               {{"a", a.raw_buffer()}, {"b", b.raw_buffer()}, {"out", &out}});
    });
    EXPECT_NE(msg.find("add_relu/fused/cuda: output 'out' starts at a device address that is not "
                       "16-byte aligned"),
              std::string::npos)
        << msg;
    whole.set_device_dirty();
    whole.copy_to_host();
    whole.for_each_value([](float x) { EXPECT_EQ(x, -7.0f); });
}

TEST(Runtime, CudaOutOfMemoryIsAnError) {
    FUSELAB_REQUIRE_CUDA_DEVICE("");
    // 1 TiB of floats, described but never allocated on the host: more than any GPU holds.
    halide_dimension_t dims[2] = {halide_dimension_t(0, 1 << 30, 1),
                                  halide_dimension_t(0, 256, 1 << 30)};
    halide_buffer_t huge{};
    huge.type = halide_type_of<float>();
    huge.dimensions = 2;
    huge.dim = dims;
    const std::string msg = error_of([&] { to_device(&huge, "oom-test"); });
    EXPECT_NE(msg.find("oom-test: copy to device failed"), std::string::npos) << msg;
    EXPECT_NE(msg.find("OUT_OF_MEMORY"), std::string::npos) << msg;
}

// --- timing -----------------------------------------------------------------------------------

// time_variant on add_relu (schedule fused) at n elements, with short budgets.
Timing time_add_relu(const char *target, int n) {
    const Workload &w = find_workload("add_relu");
    Buffers buffers = make_buffers(w, {n}, 7);
    Bindings args = bind(buffers);
    TimingOptions opt;
    opt.budget_s = 0.05;
    opt.device_budget_s = 0.05;
    return time_variant(find_variant("add_relu", "fused", target), args, opt);
}

TEST(Timing, CpuVariantIsTimedByTheHostOnly) {
    const Timing t = time_add_relu("cpu", 1 << 16);
    EXPECT_GE(t.host_repeats, TimingOptions{}.min_repeats);
    EXPECT_GE(t.calls_per_batch, 1);
    EXPECT_GT(t.host_median_us, 0);
    EXPECT_LE(t.host_min_us, t.host_median_us);
    EXPECT_EQ(t.device_repeats, 0);
    EXPECT_EQ(t.device_median_us, 0);
    EXPECT_EQ(t.device_min_us, 0);
    EXPECT_STREQ(t.method(), "host");
    EXPECT_EQ(t.median_us(), t.host_median_us);
}

TEST(Timing, CudaVariantIsAlsoTimedWithDeviceEvents) {
    FUSELAB_REQUIRE_CUDA_DEVICE("");
    const Timing t = time_add_relu("cuda", 1 << 22);
    EXPECT_GE(t.host_repeats, TimingOptions{}.min_repeats);
    EXPECT_GT(t.host_median_us, 0);
    EXPECT_GE(t.device_repeats, TimingOptions{}.min_device_repeats);
    EXPECT_LE(t.device_repeats, TimingOptions{}.max_device_repeats);
    EXPECT_GT(t.device_median_us, 0);
    EXPECT_GT(t.device_min_us, 0);
    EXPECT_LE(t.device_min_us, t.device_median_us);
    EXPECT_LT(t.device_median_us, 1e5);  // 48 MB of traffic: far below 0.1 s on any GPU
    EXPECT_STREQ(t.method(), "events");
    EXPECT_EQ(t.median_us(), t.device_median_us);
    std::cout << "[   NOTE   ] add_relu/fused/cuda 2^22: events " << t.device_median_us
              << " us over " << t.device_repeats << " calls, host " << t.host_median_us
              << " us over " << t.host_repeats << " batches of " << t.calls_per_batch << "\n";
}

TEST(Timing, DeviceTimerWithoutDeviceSaysWhy) {
    if (cuda_status().usable)
        GTEST_SKIP() << "a CUDA device is usable here: " << cuda_status().device;
    const std::string msg = error_of([] { DeviceTimer timer("timer-test", 4); });
    EXPECT_NE(msg.find("timer-test: no usable CUDA device: "), std::string::npos) << msg;
}

TEST(Timing, DeviceTimerOutOfMemoryIsAnError) {
    FUSELAB_REQUIRE_CUDA_DEVICE("");
    // A 1 TiB flush buffer: more than any GPU holds.
    const std::string msg = error_of([] { DeviceTimer timer("oom-timer", 2, size_t(1) << 40); });
    EXPECT_NE(msg.find("oom-timer: event timing: cannot allocate"), std::string::npos) << msg;
    EXPECT_NE(msg.find("OUT_OF_MEMORY"), std::string::npos) << msg;
}

TEST(Timing, DeviceTimerPairs) {
    FUSELAB_REQUIRE_CUDA_DEVICE("");
    DeviceTimer timer("timer-test", 3);
    EXPECT_EQ(timer.pairs(), 3);
    std::string msg = error_of([&] { timer.record_end(0); });
    EXPECT_NE(msg.find("timer-test: event timing: record_end of pair 0 before its record_start"),
              std::string::npos)
        << msg;
    msg = error_of([&] { timer.record_start(3); });
    EXPECT_NE(msg.find("not one of the 3"), std::string::npos) << msg;
    for (int i = 0; i < 3; i++) {
        timer.flush_l2();
        timer.record_start(i);
        if (i == 2) timer.flush_l2();  // a pair around a flush of 256 MB: not nothing
        timer.record_end(i);
    }
    const std::vector<double> ms = timer.elapsed_ms();
    ASSERT_EQ(ms.size(), 3u);
    EXPECT_GE(ms[0], 0);
    EXPECT_GE(ms[1], 0);
    EXPECT_GT(ms[2], ms[0]);
    EXPECT_LT(ms[2], 1e3);
}

TEST(Timing, DeviceTimerNeedsEveryPairRecorded) {
    FUSELAB_REQUIRE_CUDA_DEVICE("");
    DeviceTimer timer("timer-test", 2);
    timer.record_start(0);
    timer.record_end(0);
    const std::string msg = error_of([&] { timer.elapsed_ms(); });
    EXPECT_NE(msg.find("timer-test: event timing: pair 1 was not recorded"), std::string::npos)
        << msg;
}

}  // namespace
}  // namespace fuselab
