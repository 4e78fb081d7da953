// The build-time ledger (kernels per call, intermediates) says what the strategies promise.
#include <gtest/gtest.h>

#include "fuselab/registry.h"
#include "fuselab/workloads.h"

namespace fuselab {
namespace {

struct Expect {
    const char *pipeline, *schedule;
    int kernels, intermediates;
};

TEST(Ledger, CudaKernelsAndIntermediatesMatchTheStrategies) {
    const Expect expected[] = {
        {"add_relu", "unfused", 2, 1},       {"add_relu", "fused", 1, 0},
        {"conv_relu_pool", "unfused", 3, 2}, {"conv_relu_pool", "relu_inlined", 2, 1},
        {"conv_relu_pool", "tiled", 1, 0},   {"conv_relu_pool", "inline_all", 1, 0},
    };
    for (const Expect &e : expected) {
        const Variant &v = find_variant(e.pipeline, e.schedule, "cuda");
        EXPECT_EQ(v.kernels, e.kernels) << v.name();
        EXPECT_EQ(v.intermediates, e.intermediates) << v.name();
    }
}

TEST(Ledger, IntermediateBytesFollowTheSize) {
    for (const char *target : {"cpu", "cuda"}) {
        const Variant &unfused = find_variant("add_relu", "unfused", target);
        const Variant &fused = find_variant("add_relu", "fused", target);
        const Workload &w = find_workload("add_relu");
        for (int n : {1, 1000, 1 << 20}) {
            Buffers buffers = make_buffers(w, {n}, 1);
            Bindings args = bind(buffers);
            // One N-float intermediate (rounded up to whole vectors at most).
            EXPECT_GE(intermediate_bytes(unfused, args), 4 * int64_t(n)) << unfused.name();
            EXPECT_LE(intermediate_bytes(unfused, args), 4 * int64_t(n) + 4096) << unfused.name();
            EXPECT_EQ(intermediate_bytes(fused, args), 0) << fused.name();
        }
    }
    const Variant &v = find_variant("conv_relu_pool", "unfused", "cuda");
    const Workload &w = find_workload("conv_relu_pool");
    Buffers buffers = make_buffers(w, {64, 32, 3, 16}, 1);
    // conv and relu: two 64 x 32 x 16 float buffers.
    EXPECT_EQ(intermediate_bytes(v, bind(buffers)), 2 * 4 * 64 * 32 * 16);
}

}  // namespace
}  // namespace fuselab
