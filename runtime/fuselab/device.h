// The CUDA side: whether a device is usable (and why not), and moving buffers between host and
// device. Halide's CUDA runtime loads the driver at run time; fuselab makes it use the device's
// primary context, so that buffers interoperate with cudaMalloc'd memory, the seed's kernels and
// PyTorch.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "HalideRuntime.h"

namespace fuselab {

struct CudaStatus {
    bool usable = false;
    std::string reason;  // why not, when not usable
    std::string device;  // the device's name, when usable
    std::string driver;  // the driver's CUDA version ("13.0"), when usable
};

// Probed once: driver library, cuInit, a device. Never throws. Also sets
// HL_CUDA_JIT_MAX_REGISTERS=128 unless it is already set (Halide 21's default cap is 64), and
// installs fuselab's handlers in Halide's CUDA runtime: the device's primary context (PyTorch's
// too) and the calling thread's stream.
const CudaStatus &cuda_status();

// Copies a buffer to the device (allocating there when needed) / back to the host, on `stream`
// (a CUstream; nullptr: the legacy default stream; use the stream the variant ran on). `who`
// names the variant or argument for error messages. Throw Error on failure.
void to_device(halide_buffer_t *buf, const std::string &who, void *stream = nullptr);
void to_host(halide_buffer_t *buf, const std::string &who, void *stream = nullptr);
// Waits for the device work on `stream` (the work that writes `buf`).
void device_sync(halide_buffer_t *buf, const std::string &who, void *stream = nullptr);

// GPU time of device work, measured with CUDA events as triton's do_bench measures it: the work
// to time is bracketed by record_start(i) and record_end(i), each usually after flush_l2(), and
// the elapsed times are read once at the end, after one wait.
//
// Everything is enqueued on the legacy default stream (stream 0) of the device's primary context,
// which is where fuselab's kernels run: Halide launches every kernel on the stream that
// halide_cuda_get_stream answers, fuselab installs no handler for it, and Halide 21's default
// (halide_default_cuda_get_stream in src/runtime/cuda.cpp) answers nullptr, i.e. stream 0, in the
// context fuselab's acquire handler gives it, the primary one; the seed's nvcc-built kernels are
// launched with <<<grid, block>>> and no stream, i.e. the same stream 0 of the primary context
// (the CUDA runtime's context). Stream 0 is also ordered against every other blocking stream, so
// events recorded on it bracket all the work in between.
//
// Owns a scratch buffer (256 MB, like do_bench's) and `pairs` start/end event pairs; the primary
// context is pushed and popped around every driver call. Every failure throws Error naming `who`
// (the variant): no usable device, a driver without the entry points event timing needs, out of
// device memory for the scratch, a failed record or wait (a kernel's asynchronous error shows
// here).
class DeviceTimer {
public:
    static constexpr size_t kL2FlushBytes = size_t(256) << 20;

    DeviceTimer(std::string who, int pairs, size_t flush_bytes = kL2FlushBytes);
    ~DeviceTimer();
    DeviceTimer(const DeviceTimer &) = delete;
    DeviceTimer &operator=(const DeviceTimer &) = delete;

    int pairs() const { return static_cast<int>(start_.size()); }
    // Enqueues a write of a nonzero pattern over the whole scratch buffer, so that the next
    // timed work finds none of its data in L2 (the H200's L2 is 60 MB). Nonzero, so that no
    // zero-fill shortcut anywhere can make the flush lighter than a plain write.
    void flush_l2();
    // Enqueue pair i's start / end event.
    void record_start(int pair);
    void record_end(int pair);
    // Waits for the last end event recorded, then returns each pair's milliseconds between its
    // start and its end. Every pair must have been recorded.
    std::vector<double> elapsed_ms();

private:
    void check_pair(int pair, const char *what) const;
    void release() noexcept;

    std::string who_;
    size_t flush_bytes_;
    uint64_t scratch_ = 0;  // CUdeviceptr
    uint32_t flush_value_ = 0x3f800001u;
    std::vector<void *> start_, end_;  // CUevent
    std::vector<char> started_, ended_;
    int last_end_ = -1;  // the pair whose end event was recorded last
};

namespace detail {
// The CUDA stream Halide's runtime is given on this thread (fuselab's get_stream handler answers
// it), set for one scope: invoke() and the copies above set it for their call.
void *stream_of_this_thread();
class ScopedStream {
public:
    explicit ScopedStream(void *stream);
    ~ScopedStream();
    ScopedStream(const ScopedStream &) = delete;
    ScopedStream &operator=(const ScopedStream &) = delete;

private:
    void *saved_;
};
// The message of the last Halide runtime error on this thread ("" if none), and clearing it.
std::string take_halide_error();
void clear_halide_error();  // the same, with no string made (the lean call's path)
void install_halide_error_handler();
std::string halide_error_code_name(int code);
}  // namespace detail

}  // namespace fuselab
