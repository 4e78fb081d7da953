// Every variant against its float64 reference: fresh random inputs, poisoned outputs, sizes that
// are not multiples of any tile.
#include <gtest/gtest.h>

#include <cmath>
#include <iostream>
#include <random>

#include "fuselab/device.h"
#include "fuselab/error.h"
#include "fuselab/registry.h"
#include "fuselab/workloads.h"

namespace fuselab {
namespace {

std::vector<const Variant *> all_variants() {
    std::vector<const Variant *> out;
    for (const Variant &v : variants()) out.push_back(&v);
    return out;
}

std::string test_name(const testing::TestParamInfo<const Variant *> &info) {
    const Variant &v = *info.param;
    return std::string(v.pipeline) + "__" + v.schedule + "__" + v.target;
}

class VariantTest : public testing::TestWithParam<const Variant *> {};

TEST_P(VariantTest, MatchesFloat64Reference) {
    const Variant &v = *GetParam();
    if (v.is_cuda() && !cuda_status().usable) {
        GTEST_SKIP() << v.name() << ": no usable CUDA device: " << cuda_status().reason;
    }
    const Workload &w = find_workload(v.pipeline);
    // Autoscheduled pipelines are tuned for their estimates and may split loops without guards:
    // at sizes their tiles do not fit they must refuse up front, saying what they were built for
    // and what to use instead (never Halide's raw bounds message), and they must be right at
    // every size they accept.
    const bool autoscheduled = *v.autoscheduler != '\0';
    // A variant that takes a buffer as kernel parameters runs one shape: others are refused.
    bool one_shape = false;
    for (int i = 0; i < v.metadata()->num_arguments; i++)
        one_shape |= std::string(v.metadata()->arguments[i].name).find("_param_") != std::string::npos;
    int checked_sizes = 0;
    std::vector<Size> sizes = w.test_sizes;
    if (autoscheduled) sizes.push_back(v.is_cuda() ? w.cuda_sizes.front() : w.cpu_sizes.front());
    for (const Size &size : sizes) {
        const uint64_t seed = std::random_device{}();
        SCOPED_TRACE(v.name() + " size " + format_size(size) + " seed " + std::to_string(seed));
        Buffers buffers = make_buffers(w, size, seed);
        const RefBuffers ref = w.reference(buffers, size);
        // Twice: the second run sees a poisoned output again, so a stale result cannot pass.
        for (int run = 0; run < 2; run++) {
            poison_outputs(w, size, buffers);
            Bindings args = bind(buffers);
            if (autoscheduled) {
                try {
                    invoke(v, args);
                } catch (const Error &e) {
                    const std::string msg = e.what();
                    EXPECT_EQ(msg.rfind(v.name() + ": refuses this size: the ", 0), 0u) << msg;
                    EXPECT_NE(msg.find("autoscheduler tuned it for out"), std::string::npos) << msg;
                    EXPECT_NE(msg.find("Use a hand-written schedule"), std::string::npos) << msg;
                    EXPECT_EQ(msg.find("accessed at"), std::string::npos) << msg;
                    for (const auto &kv : ref) {  // refused before anything was written
                        auto &out = buffers.at(kv.first);
                        if (v.is_cuda()) out.copy_to_host();
                        out.for_each_value([&](float x) { ASSERT_TRUE(std::isnan(x)) << msg; });
                    }
                    std::cout << "[   NOTE   ] " << v.name() << " refuses size "
                              << format_size(size) << ": " << msg << "\n";
                    break;
                }
            } else if (one_shape) {
                try {
                    invoke(v, args);
                } catch (const Error &e) {
                    const std::string msg = e.what();
                    EXPECT_NE(msg.find("kernel parameters, so it runs one shape only"),
                              std::string::npos)
                        << msg;
                    break;
                }
            } else {
                ASSERT_NO_THROW(invoke(v, args));
            }
            if (run == 0) checked_sizes++;
            for (const auto &kv : ref) {
                auto &out = buffers.at(kv.first);
                if (v.is_cuda()) out.copy_to_host();
                const double err = relative_error(out, kv.second);
                EXPECT_LE(err, w.tolerance) << "output " << kv.first << " run " << run;
            }
        }
    }
    EXPECT_GE(checked_sizes,
              autoscheduled || one_shape ? 1 : static_cast<int>(w.test_sizes.size()));
}

INSTANTIATE_TEST_SUITE_P(AllVariants, VariantTest, testing::ValuesIn(all_variants()), test_name);

}  // namespace
}  // namespace fuselab
