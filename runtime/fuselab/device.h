// The CUDA side: whether a device is usable (and why not), and moving buffers between host and
// device. Halide's CUDA runtime loads the driver at run time; fuselab makes it use the device's
// primary context, so that buffers interoperate with cudaMalloc'd memory, the seed's kernels and
// PyTorch.
#pragma once

#include <string>

#include "HalideRuntime.h"

namespace fuselab {

struct CudaStatus {
    bool usable = false;
    std::string reason;  // why not, when not usable
    std::string device;  // the device's name, when usable
};

// Probed once: driver library, cuInit, a device. Never throws. Also sets
// HL_CUDA_JIT_MAX_REGISTERS=128 unless it is already set (Halide 21's default cap is 64).
const CudaStatus &cuda_status();

// Copies a buffer to the device (allocating there when needed) / back to the host.
// `who` names the variant or argument for error messages. Throw Error on failure.
void to_device(halide_buffer_t *buf, const std::string &who);
void to_host(halide_buffer_t *buf, const std::string &who);
// Waits for the device work that writes `buf`.
void device_sync(halide_buffer_t *buf, const std::string &who);

namespace detail {
// The message of the last Halide runtime error on this thread ("" if none), and clearing it.
std::string take_halide_error();
void install_halide_error_handler();
std::string halide_error_code_name(int code);
}  // namespace detail

}  // namespace fuselab
