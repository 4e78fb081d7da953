// Measured kernel launches and kernel-only GPU time per call, from CUPTI's Activity API
// (`fuselab bench --cupti`). libcupti is dlopen'ed at run time, never linked, so fuselab runs
// where it is absent; only --cupti then fails, saying what it tried.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace fuselab {

struct CallTrace {
    int kernels = 0;       // kernels that ran during the call
    double kernel_us = 0;  // the sum of their durations (GPU timestamps)
};

// One per process: CUPTI's buffer callbacks carry no user data.
class CuptiTracer {
public:
    // Loads libcupti (FUSELAB_CUPTI_LIB, the copy found at configure time, then libcupti.so,
    // .so.12, .so.13) and registers the activity buffers. Throws Error saying why it cannot.
    CuptiTracer();
    ~CuptiTracer();
    CuptiTracer(const CuptiTracer &) = delete;
    CuptiTracer &operator=(const CuptiTracer &) = delete;

    // "PATH (CUPTI API version N)", plus the candidates that failed to load, if any.
    const std::string &description() const { return description_; }

    // Runs `call` `calls` times with kernel tracing on, and only then; `call` must end with a
    // device sync so that each call's records are complete when they are collected.
    std::vector<CallTrace> trace(const std::function<void()> &call, int calls);

private:
    std::string description_;
};

}  // namespace fuselab
