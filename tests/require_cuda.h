// CUDA cases skip, saying why, where no GPU is usable. FUSELAB_REQUIRE_CUDA=1 (the GPU machine's
// runs set it) makes every such skip a failure, so that a broken driver cannot pass as green.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>

#include "fuselab/device.h"

namespace fuselab {

inline bool cuda_required() {
    const char *v = std::getenv("FUSELAB_REQUIRE_CUDA");
    return v && std::strcmp(v, "1") == 0;
}

}  // namespace fuselab

// Skips (or, under FUSELAB_REQUIRE_CUDA=1, fails) the current test with `why`.
#define FUSELAB_CUDA_SKIP(why)                                                          \
    do {                                                                                \
        if (::fuselab::cuda_required()) GTEST_FAIL() << "FUSELAB_REQUIRE_CUDA=1: " << why; \
        GTEST_SKIP() << why;                                                            \
    } while (0)

// Ends the current test unless a CUDA device is usable.
#define FUSELAB_REQUIRE_CUDA_DEVICE(who)                                                       \
    do {                                                                                       \
        if (!::fuselab::cuda_status().usable)                                                  \
            FUSELAB_CUDA_SKIP(who << "no usable CUDA device: " << ::fuselab::cuda_status().reason); \
    } while (0)
