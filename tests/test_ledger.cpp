// The build-time ledger (kernels per call, intermediates) says what the strategies promise.
#include <gtest/gtest.h>

#include "require_cuda.h"

#include "fuselab/registry.h"
#include "fuselab/workloads.h"

namespace fuselab {
namespace {

struct Expect {
    const char *pipeline, *schedule;
    int kernels, intermediates;
};

// Whether this build has CUDA variants (the sanitizer build has none).
bool cuda_built() {
    for (const Variant &v : variants()) {
        if (v.is_cuda()) return true;
    }
    return false;
}

TEST(Ledger, CudaKernelsAndIntermediatesMatchTheStrategies) {
    if (!cuda_built()) FUSELAB_CUDA_SKIP("this build has no CUDA variants (FUSELAB_CUDA=OFF)");
    const Expect expected[] = {
        {"add_relu", "unfused", 2, 1},
        {"add_relu", "fused", 1, 0},
        {"conv_relu_pool", "unfused", 3, 2},
        {"conv_relu_pool", "relu_inlined", 2, 1},
        {"conv_relu_pool", "tiled", 1, 0},
        // Specialized (K >= 16 or not): one kernel on either path, not two.
        {"conv_relu_pool", "shared_weights", 1, 0},
        {"conv_relu_pool", "inline_all", 1, 0},
        {"pointwise_chain", "unfused", 10, 9},
        {"pointwise_chain", "grouped2", 5, 4},
        {"pointwise_chain", "grouped5", 2, 1},
        {"pointwise_chain", "fused", 1, 0},
        {"branches", "separate", 2, 0},
        {"branches", "horizontal", 1, 0},
        {"branches_indep", "separate", 2, 0},
        {"branches_indep", "horizontal", 1, 0},
        {"blur3x3", "root", 2, 1},
        {"blur3x3", "inline", 1, 0},
        {"blur3x3", "tiled", 1, 0},
        {"stencil_chain_k8", "root", 8, 7},
        {"stencil_chain_k8", "tiled", 1, 0},
        {"stencil_chain_k8", "tiled_pairs", 4, 3},
        {"stencil_chain_k4", "inline_all", 1, 0},
        {"stencil_chain_k8", "line_buffer", 1, 0},
        {"stencil_chain_k2", "line_buffer_v8", 1, 0},
        {"blur3x3", "line_buffer", 1, 0},
        {"two_convs", "separate", 2, 0},
        {"two_convs", "horizontal", 1, 0},
        {"two_convs_indep", "separate_shared", 2, 0},
    };
    for (const Expect &e : expected) {
        const Variant &v = find_variant(e.pipeline, e.schedule, "cuda");
        EXPECT_EQ(v.kernels, e.kernels) << v.name();
        EXPECT_EQ(v.intermediates, e.intermediates) << v.name();
    }
}

TEST(Ledger, IntermediateBytesFollowTheSize) {
    std::vector<std::string> targets = {"cpu"};
    if (cuda_built()) targets.push_back("cuda");
    for (const std::string &target : targets) {
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
    if (!cuda_built()) FUSELAB_CUDA_SKIP("the CUDA part: this build has no CUDA variants");
    // pointwise_chain: nine N-float intermediates unfused, none fused.
    {
        const Workload &pc = find_workload("pointwise_chain");
        Buffers buffers = make_buffers(pc, {1 << 16}, 1);
        Bindings args = bind(buffers);
        EXPECT_EQ(intermediate_bytes(find_variant("pointwise_chain", "fused", "cuda"), args), 0);
        const int64_t unfused =
            intermediate_bytes(find_variant("pointwise_chain", "unfused", "cuda"), args);
        EXPECT_GE(unfused, 9 * 4 * int64_t(1 << 16));
        EXPECT_LE(unfused, 9 * (4 * int64_t(1 << 16) + 4096));
    }
    const Variant &v = find_variant("conv_relu_pool", "unfused", "cuda");
    const Workload &w = find_workload("conv_relu_pool");
    Buffers buffers = make_buffers(w, {64, 32, 3, 16}, 1);
    // conv and relu: two 64 x 32 x 16 float buffers.
    EXPECT_EQ(intermediate_bytes(v, bind(buffers)), 2 * 4 * 64 * 32 * 16);
}

}  // namespace
}  // namespace fuselab
