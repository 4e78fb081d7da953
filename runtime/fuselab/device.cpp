#include "fuselab/device.h"

#include <dlfcn.h>

#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <mutex>
#include <utility>

#include "HalideRuntimeCuda.h"
#include "fuselab/error.h"

namespace fuselab {
namespace {

// The few driver entry points fuselab itself needs, resolved from libcuda.so.1.
using CUresult = int;
using CUdevice = int;
using CUcontext = void *;  // as HalideRuntimeCuda.h passes it
using CUstream = void *;
using CUevent = void *;
using CUfunction = void *;
using CUdeviceptr = unsigned long long;       // as cuda.h defines it on 64-bit hosts
constexpr CUresult kCudaErrorNotReady = 600;  // CUDA_ERROR_NOT_READY
constexpr unsigned kEventDefault = 0;         // CU_EVENT_DEFAULT: timing enabled
constexpr CUstream kLegacyStream = nullptr;   // stream 0: the legacy default stream
constexpr int kMaxDynamicSharedBytes = 8;     // CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES
constexpr unsigned kDefaultSharedBytes = 48 * 1024;  // what a kernel may take unless raised

struct Driver {
    void *lib = nullptr;
    CUresult (*cuInit)(unsigned) = nullptr;
    CUresult (*cuDeviceGetCount)(int *) = nullptr;
    CUresult (*cuDeviceGet)(CUdevice *, int) = nullptr;
    CUresult (*cuDeviceGetName)(char *, int, CUdevice) = nullptr;
    CUresult (*cuDriverGetVersion)(int *) = nullptr;
    CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *, CUdevice) = nullptr;
    CUresult (*cuGetErrorName)(CUresult, const char **) = nullptr;
    CUcontext primary = nullptr;

    // DeviceTimer's, by the names the driver exports (cuda.h maps the plain names to these).
    // Optional: a driver without one still runs every variant; only event timing then refuses,
    // naming the first one missing (timing_missing).
    CUresult (*cuCtxPushCurrent)(CUcontext) = nullptr;   // cuCtxPushCurrent_v2
    CUresult (*cuCtxPopCurrent)(CUcontext *) = nullptr;  // cuCtxPopCurrent_v2
    CUresult (*cuEventCreate)(CUevent *, unsigned) = nullptr;
    CUresult (*cuEventRecord)(CUevent, CUstream) = nullptr;  // not _ptsz: stream 0 is legacy
    CUresult (*cuEventSynchronize)(CUevent) = nullptr;
    CUresult (*cuEventElapsedTime)(float *, CUevent, CUevent) = nullptr;  // _v2 where exported
    CUresult (*cuEventDestroy)(CUevent) = nullptr;                        // cuEventDestroy_v2
    CUresult (*cuMemAlloc)(CUdeviceptr *, size_t) = nullptr;              // cuMemAlloc_v2
    CUresult (*cuMemFree)(CUdeviceptr) = nullptr;                         // cuMemFree_v2
    CUresult (*cuMemsetD32Async)(CUdeviceptr, unsigned, size_t, CUstream) = nullptr;
    CUresult (*cuStreamSynchronize)(CUstream) = nullptr;
    std::string timing_missing;

    // Halide's launches go through launch_kernel (below), which may raise a kernel's shared
    // memory limit first; both optional (a driver without them runs Halide's own path).
    CUresult (*cuLaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned,
                               unsigned, unsigned, CUstream, void **, void **) = nullptr;
    CUresult (*cuFuncSetAttribute)(CUfunction, int, int) = nullptr;
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

// The first of `names` that the driver exports; none: timing_missing names the first name.
template <typename F>
void resolve_optional(F &fn, std::initializer_list<const char *> names) {
    fn = nullptr;
    for (const char *name : names) {
        if ((fn = reinterpret_cast<F>(dlsym(driver().lib, name)))) return;
    }
    if (driver().timing_missing.empty()) driver().timing_missing = *names.begin();
}

void resolve_timing_entry_points() {
    Driver &d = driver();
    resolve_optional(d.cuCtxPushCurrent, {"cuCtxPushCurrent_v2"});
    resolve_optional(d.cuCtxPopCurrent, {"cuCtxPopCurrent_v2"});
    resolve_optional(d.cuEventCreate, {"cuEventCreate"});
    resolve_optional(d.cuEventRecord, {"cuEventRecord"});
    resolve_optional(d.cuEventSynchronize, {"cuEventSynchronize"});
    // _v2 (drivers since CUDA 12.8, what cuda.h now calls cuEventElapsedTime), else the first.
    resolve_optional(d.cuEventElapsedTime, {"cuEventElapsedTime_v2", "cuEventElapsedTime"});
    resolve_optional(d.cuEventDestroy, {"cuEventDestroy_v2"});
    resolve_optional(d.cuMemAlloc, {"cuMemAlloc_v2"});
    resolve_optional(d.cuMemFree, {"cuMemFree_v2"});
    resolve_optional(d.cuMemsetD32Async, {"cuMemsetD32Async"});
    resolve_optional(d.cuStreamSynchronize, {"cuStreamSynchronize"});
    // Not timing's: both or neither, without a word in timing_missing.
    d.cuLaunchKernel = reinterpret_cast<decltype(d.cuLaunchKernel)>(dlsym(d.lib, "cuLaunchKernel"));
    d.cuFuncSetAttribute =
        reinterpret_cast<decltype(d.cuFuncSetAttribute)>(dlsym(d.lib, "cuFuncSetAttribute"));
    if (!d.cuLaunchKernel || !d.cuFuncSetAttribute) d.cuLaunchKernel = nullptr;
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
    resolve_timing_entry_points();
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
    int version = 0;
    if (resolve(d.cuDriverGetVersion, "cuDriverGetVersion") && d.cuDriverGetVersion(&version) == 0)
        s.driver = std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 10);
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
int stream_of_caller(void *, CUcontext, CUstream *stream) {
    *stream = detail::stream_of_this_thread();
    return 0;
}

thread_local std::string last_halide_error;

void record_halide_error(void *, const char *msg) {
    last_halide_error = msg ? msg : "";
    while (!last_halide_error.empty() && last_halide_error.back() == '\n')
        last_halide_error.pop_back();
}

}  // namespace

namespace {
// Halide 21 gives every kernel its shared memory as dynamic shared memory, sized at the launch,
// and never raises a kernel's limit past the default 48 KB, so a launch asking for more fails
// (CUDA_ERROR_INVALID_VALUE). Its cuLaunchKernel, resolved through halide_cuda_get_symbol, is
// this one: past 48 KB it first raises the kernel's limit to what the launch asks (the driver
// refuses past the device's opt-in maximum, 227 KB on the H200, and that error is the launch's).
// The staged row strategies hold rows up to 192 KB so (rows_forms.h: Form::staged_bytes).
CUresult launch_kernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                       unsigned by, unsigned bz, unsigned shared, CUstream stream, void **params,
                       void **extra) {
    Driver &d = driver();
    if (shared > kDefaultSharedBytes && d.cuFuncSetAttribute) {
        if (CUresult r = d.cuFuncSetAttribute(f, kMaxDynamicSharedBytes, static_cast<int>(shared)))
            return r;
    }
    return d.cuLaunchKernel(f, gx, gy, gz, bx, by, bz, shared, stream, params, extra);
}
}  // namespace

extern "C" void *halide_cuda_get_symbol(void *, const char *name) {
    Driver &d = driver();
    if (!d.lib) return nullptr;
    if (std::strcmp(name, "cuLaunchKernel") == 0 && d.cuLaunchKernel)
        return reinterpret_cast<void *>(&launch_kernel);
    return dlsym(d.lib, name);
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
            halide_set_cuda_get_stream(stream_of_caller);
            // Unfused schedules must not be charged for cuMemAlloc/cuMemFree on every call.
            // FUSELAB_DEVICE_ALLOCATION_REUSE=0 turns it off (compute-sanitizer's memcheck: a
            // reused, larger block would hide a small overrun).
            const char *reuse = std::getenv("FUSELAB_DEVICE_ALLOCATION_REUSE");
            halide_reuse_device_allocations(nullptr, !(reuse && std::string(reuse) == "0"));
        }
    });
    return status;
}

namespace detail {

namespace {
thread_local void *this_threads_stream = nullptr;
}
void *stream_of_this_thread() {
    return this_threads_stream;
}
ScopedStream::ScopedStream(void *stream) : saved_(this_threads_stream) {
    this_threads_stream = stream;
}
ScopedStream::~ScopedStream() {
    this_threads_stream = saved_;
}

void install_halide_error_handler() {
    static std::once_flag once;
    std::call_once(once, [] { halide_set_error_handler(record_halide_error); });
}

std::string take_halide_error() {
    std::string s;
    s.swap(last_halide_error);
    return s;
}

void clear_halide_error() {
    last_halide_error.clear();
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

void to_device(halide_buffer_t *buf, const std::string &who, void *stream) {
    require_cuda(who);
    detail::install_halide_error_handler();
    detail::ScopedStream on(stream);
    check(halide_copy_to_device(nullptr, buf, halide_cuda_device_interface()), who,
          "copy to device");
}

void to_host(halide_buffer_t *buf, const std::string &who, void *stream) {
    detail::install_halide_error_handler();
    detail::ScopedStream on(stream);
    check(halide_copy_to_host(nullptr, buf), who, "copy to host");
}

void device_sync(halide_buffer_t *buf, const std::string &who, void *stream) {
    if (!buf->device_interface) return;
    detail::install_halide_error_handler();
    detail::ScopedStream on(stream);
    check(halide_device_sync(nullptr, buf), who, "device sync");
}

// --- DeviceTimer ------------------------------------------------------------------------------

namespace {

// The primary context made current for the driver calls of one scope (Halide pushes it around
// its own calls the same way, so nothing else relies on what is current between them).
class ScopedPrimaryContext {
public:
    explicit ScopedPrimaryContext(const std::string &who) {
        if (CUresult r = driver().cuCtxPushCurrent(driver().primary)) {
            throw Error(who +
                        ": event timing: cannot make the primary context current "
                        "(cuCtxPushCurrent): " +
                        cu_error(r));
        }
    }
    ~ScopedPrimaryContext() {
        CUcontext popped = nullptr;
        driver().cuCtxPopCurrent(&popped);  // cannot fail after a successful push
    }
    ScopedPrimaryContext(const ScopedPrimaryContext &) = delete;
    ScopedPrimaryContext &operator=(const ScopedPrimaryContext &) = delete;
};

void check_cu(CUresult r, const std::string &who, const std::string &what) {
    if (r) throw Error(who + ": event timing: " + what + " failed: " + cu_error(r));
}

}  // namespace

DeviceTimer::DeviceTimer(std::string who, int pairs, size_t flush_bytes)
    : who_(std::move(who)), flush_bytes_(flush_bytes / 4 * 4) {
    require_cuda(who_);
    if (!driver().timing_missing.empty()) {
        throw Error(who_ + ": event timing needs the driver API entry point " +
                    driver().timing_missing + ", which libcuda.so.1 lacks (driver too old?)");
    }
    if (pairs < 1) throw Error(who_ + ": event timing: no event pairs asked for");
    if (flush_bytes_ == 0) throw Error(who_ + ": event timing: an empty L2-flush buffer");
    ScopedPrimaryContext ctx(who_);
    try {
        CUdeviceptr scratch = 0;
        if (CUresult r = driver().cuMemAlloc(&scratch, flush_bytes_)) {
            throw Error(
                who_ + ": event timing: cannot allocate the " + std::to_string(flush_bytes_ >> 20) +
                " MB buffer that flushes L2 between timed calls (cuMemAlloc): " + cu_error(r));
        }
        scratch_ = scratch;
        start_.reserve(pairs);
        end_.reserve(pairs);
        for (int i = 0; i < pairs; i++) {
            for (std::vector<void *> *events : {&start_, &end_}) {
                CUevent e = nullptr;
                check_cu(driver().cuEventCreate(&e, kEventDefault), who_, "cuEventCreate");
                events->push_back(e);
            }
        }
    } catch (...) {
        release();
        throw;
    }
    started_.assign(pairs, 0);
    ended_.assign(pairs, 0);
}

DeviceTimer::~DeviceTimer() {
    release();
}

void DeviceTimer::release() noexcept {
    if (!scratch_ && start_.empty() && end_.empty()) return;
    Driver &d = driver();
    if (d.cuCtxPushCurrent(d.primary) != 0) return;  // nothing can be freed without it
    // The flushes may still be writing the scratch; after an error this may fail, and the
    // memory is freed all the same.
    d.cuStreamSynchronize(kLegacyStream);
    for (std::vector<void *> *events : {&start_, &end_}) {
        for (void *e : *events) d.cuEventDestroy(e);
        events->clear();
    }
    if (scratch_) d.cuMemFree(scratch_);
    scratch_ = 0;
    CUcontext popped = nullptr;
    d.cuCtxPopCurrent(&popped);
}

void DeviceTimer::check_pair(int pair, const char *what) const {
    if (pair < 0 || pair >= pairs()) {
        throw Error(who_ + ": event timing: " + what + " of pair " + std::to_string(pair) +
                    ", which is not one of the " + std::to_string(pairs()));
    }
}

void DeviceTimer::flush_l2() {
    ScopedPrimaryContext ctx(who_);
    check_cu(driver().cuMemsetD32Async(scratch_, flush_value_, flush_bytes_ / 4, kLegacyStream),
             who_, "the L2 flush (cuMemsetD32Async)");
}

void DeviceTimer::record_start(int pair) {
    check_pair(pair, "record_start");
    ScopedPrimaryContext ctx(who_);
    check_cu(driver().cuEventRecord(start_[pair], kLegacyStream), who_, "cuEventRecord (start)");
    started_[pair] = 1;
    ended_[pair] = 0;
}

void DeviceTimer::record_end(int pair) {
    check_pair(pair, "record_end");
    if (!started_[pair]) {
        throw Error(who_ + ": event timing: record_end of pair " + std::to_string(pair) +
                    " before its record_start");
    }
    ScopedPrimaryContext ctx(who_);
    check_cu(driver().cuEventRecord(end_[pair], kLegacyStream), who_, "cuEventRecord (end)");
    ended_[pair] = 1;
    last_end_ = pair;
}

std::vector<double> DeviceTimer::elapsed_ms() {
    for (int i = 0; i < pairs(); i++) {
        if (!ended_[i]) {
            throw Error(who_ + ": event timing: pair " + std::to_string(i) +
                        " was not recorded (start and end) before elapsed_ms");
        }
    }
    ScopedPrimaryContext ctx(who_);
    // One stream, in order: once the last end event is done, every earlier event is. A kernel's
    // asynchronous failure surfaces here.
    check_cu(driver().cuEventSynchronize(end_[last_end_]), who_,
             "waiting for the timed calls (cuEventSynchronize)");
    std::vector<double> ms(pairs());
    for (int i = 0; i < pairs(); i++) {
        float t = 0;
        CUresult r = driver().cuEventElapsedTime(&t, start_[i], end_[i]);
        if (r == kCudaErrorNotReady) {  // not expected on one stream; wait for this pair then
            check_cu(driver().cuEventSynchronize(end_[i]), who_, "cuEventSynchronize");
            r = driver().cuEventElapsedTime(&t, start_[i], end_[i]);
        }
        check_cu(r, who_, "cuEventElapsedTime of pair " + std::to_string(i));
        ms[i] = t;
    }
    return ms;
}

}  // namespace fuselab
