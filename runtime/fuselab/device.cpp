#include "fuselab/device.h"

#include <dlfcn.h>

#include <cstdlib>
#include <mutex>

#include "HalideRuntimeCuda.h"
#include "fuselab/error.h"

namespace fuselab {
namespace {

// The few driver entry points fuselab itself needs, resolved from libcuda.so.1.
using CUresult = int;
using CUdevice = int;
using CUcontext = void *;  // as HalideRuntimeCuda.h passes it
struct Driver {
    void *lib = nullptr;
    CUresult (*cuInit)(unsigned) = nullptr;
    CUresult (*cuDeviceGetCount)(int *) = nullptr;
    CUresult (*cuDeviceGet)(CUdevice *, int) = nullptr;
    CUresult (*cuDeviceGetName)(char *, int, CUdevice) = nullptr;
    CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *, CUdevice) = nullptr;
    CUresult (*cuGetErrorName)(CUresult, const char **) = nullptr;
    CUcontext primary = nullptr;
};

Driver &driver() {
    static Driver d;
    return d;
}

std::string cu_error(CUresult r) {
    const char *name = nullptr;
    if (driver().cuGetErrorName) driver().cuGetErrorName(r, &name);
    return name ? name : "CUDA error " + std::to_string(r);
}

std::string missing_symbol;

template <typename F>
bool resolve(F &fn, const char *name) {
    fn = reinterpret_cast<F>(dlsym(driver().lib, name));
    if (!fn) missing_symbol = name;
    return fn != nullptr;
}

CudaStatus probe() {
    CudaStatus s;
    Driver &d = driver();
    d.lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_GLOBAL);
    if (!d.lib) {
        s.reason =
            "the NVIDIA driver library libcuda.so.1 cannot be loaded (no NVIDIA driver here)";
        return s;
    }
    if (!resolve(d.cuInit, "cuInit") || !resolve(d.cuDeviceGetCount, "cuDeviceGetCount") ||
        !resolve(d.cuDeviceGet, "cuDeviceGet") || !resolve(d.cuDeviceGetName, "cuDeviceGetName") ||
        !resolve(d.cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain") ||
        !resolve(d.cuGetErrorName, "cuGetErrorName")) {
        s.reason = "libcuda.so.1 lacks the driver API entry point " + missing_symbol +
                   " (driver too old?)";
        return s;
    }
    if (CUresult r = d.cuInit(0)) {
        s.reason = "cuInit failed: " + cu_error(r);
        return s;
    }
    int count = 0;
    if (CUresult r = d.cuDeviceGetCount(&count)) {
        s.reason = "cuDeviceGetCount failed: " + cu_error(r);
        return s;
    }
    if (count == 0) {
        s.reason = "the driver reports no CUDA device";
        return s;
    }
    CUdevice dev = 0;
    char name[256] = {0};
    if (CUresult r = d.cuDeviceGet(&dev, 0)) {
        s.reason = "cuDeviceGet(0) failed: " + cu_error(r);
        return s;
    }
    d.cuDeviceGetName(name, sizeof(name), dev);
    if (CUresult r = d.cuDevicePrimaryCtxRetain(&d.primary, dev)) {
        s.reason = "cannot retain the device's primary context: " + cu_error(r);
        return s;
    }
    s.usable = true;
    s.device = name;
    return s;
}

// Halide's CUDA runtime asks these for its context and driver symbols.
int acquire_primary_context(void *user_context, CUcontext *ctx, bool) {
    const CudaStatus &s = cuda_status();
    if (!s.usable) {
        halide_error(user_context, ("no usable CUDA device: " + s.reason).c_str());
        return halide_error_code_device_interface_no_device;
    }
    *ctx = driver().primary;
    return 0;
}
int release_context(void *) {
    return 0;
}

thread_local std::string last_halide_error;

void record_halide_error(void *, const char *msg) {
    last_halide_error = msg ? msg : "";
    while (!last_halide_error.empty() && last_halide_error.back() == '\n')
        last_halide_error.pop_back();
}

}  // namespace

extern "C" void *halide_cuda_get_symbol(void *, const char *name) {
    return driver().lib ? dlsym(driver().lib, name) : nullptr;
}

const CudaStatus &cuda_status() {
    static CudaStatus status;
    static std::once_flag once;
    std::call_once(once, [] {
        // Halide 21 loads PTX with a 64-register cap unless told otherwise; fused kernels that
        // keep tiles in registers spill under it (seed §1.6). fuselab sets 128 unless the caller
        // chose a value: on the H200 the register-blocked conv kernel runs fastest there (156
        // bytes of spills cost less than the warps gained: at 255 it takes 234 registers and
        // fits half as many). No other kernel needs more than 128.
        setenv("HL_CUDA_JIT_MAX_REGISTERS", "128", /*overwrite=*/0);
        status = probe();
        if (status.usable) {
            halide_set_cuda_acquire_context(acquire_primary_context);
            halide_set_cuda_release_context(release_context);
            // Unfused schedules must not be charged for cuMemAlloc/cuMemFree on every call.
            halide_reuse_device_allocations(nullptr, true);
        }
    });
    return status;
}

namespace detail {

void install_halide_error_handler() {
    static std::once_flag once;
    std::call_once(once, [] { halide_set_error_handler(record_halide_error); });
}

std::string take_halide_error() {
    std::string s;
    s.swap(last_halide_error);
    return s;
}

std::string halide_error_code_name(int code) {
    switch (code) {
        case halide_error_code_out_of_memory:
            return "out of memory";
        case halide_error_code_buffer_argument_is_null:
            return "buffer argument is null";
        case halide_error_code_bad_type:
            return "bad type";
        case halide_error_code_access_out_of_bounds:
            return "access out of bounds";
        case halide_error_code_buffer_allocation_too_large:
            return "buffer allocation too large";
        case halide_error_code_buffer_extents_too_large:
            return "buffer extents too large";
        case halide_error_code_constraint_violated:
            return "constraint violated";
        case halide_error_code_bad_dimensions:
            return "bad dimensions";
        case halide_error_code_device_malloc_failed:
            return "device malloc failed (device out of memory?)";
        case halide_error_code_copy_to_device_failed:
            return "copy to device failed";
        case halide_error_code_copy_to_host_failed:
            return "copy to host failed";
        case halide_error_code_device_run_failed:
            return "device run failed";
        case halide_error_code_device_interface_no_device:
            return "no device";
        case halide_error_code_buffer_is_null:
            return "buffer is null";
        default:
            return "Halide error code " + std::to_string(code);
    }
}

}  // namespace detail

namespace {
void check(int code, const std::string &who, const char *what) {
    std::string msg = detail::take_halide_error();
    if (code == 0) return;
    if (code > 0) {  // a raw CUresult from the CUDA runtime
        msg += (msg.empty() ? "" : "; ") + cu_error(code);
    }
    throw Error(who + ": " + what +
                " failed: " + (msg.empty() ? detail::halide_error_code_name(code) : msg));
}

void require_cuda(const std::string &who) {
    const CudaStatus &s = cuda_status();
    if (!s.usable) throw Error(who + ": no usable CUDA device: " + s.reason);
}
}  // namespace

void to_device(halide_buffer_t *buf, const std::string &who) {
    require_cuda(who);
    detail::install_halide_error_handler();
    check(halide_copy_to_device(nullptr, buf, halide_cuda_device_interface()), who,
          "copy to device");
}

void to_host(halide_buffer_t *buf, const std::string &who) {
    detail::install_halide_error_handler();
    check(halide_copy_to_host(nullptr, buf), who, "copy to host");
}

void device_sync(halide_buffer_t *buf, const std::string &who) {
    if (!buf->device_interface) return;
    detail::install_halide_error_handler();
    check(halide_device_sync(nullptr, buf), who, "device sync");
}

}  // namespace fuselab
