#include "cupti.h"

#include "fuselab/error.h"

#ifdef FUSELAB_HAVE_CUPTI
#include <cupti_activity.h>
#include <cupti_result.h>
#include <cupti_version.h>
#include <dlfcn.h>

#include <cstddef>
#include <cstdlib>
#include <mutex>
#include <utility>
#endif

namespace fuselab {

#ifndef FUSELAB_HAVE_CUPTI

CuptiTracer::CuptiTracer() {
    throw Error(
        "--cupti: this fuselab was built without CUPTI support (CMake found no cupti_activity.h or "
        "cuda.h; install requirements.txt into .venv, which brings nvidia-cuda-cupti-cu12, and "
        "reconfigure)");
}
CuptiTracer::~CuptiTracer() = default;
std::vector<CallTrace> CuptiTracer::trace(const std::function<void()> &, int) {
    return {};
}

#else

namespace {

// Only these leading fields of a kernel record are read. They sit at the same offsets in every
// record version from CUpti_ActivityKernel2 (CUDA 6) to CUpti_ActivityKernel10 (CUPTI 13), so a
// libcupti newer than these 12.8 headers (whose records are longer) is read correctly;
// cuptiActivityGetNextRecord steps over each record by its real size.
using KernelRecord = CUpti_ActivityKernel9;
static_assert(offsetof(KernelRecord, kind) == 0 && offsetof(KernelRecord, start) == 16 &&
                  offsetof(KernelRecord, end) == 24,
              "CUPTI kernel record layout changed");

// The entry points used, typed by the headers' own declarations.
struct Api {
    decltype(&cuptiGetVersion) get_version = nullptr;
    decltype(&cuptiGetResultString) result_string = nullptr;
    decltype(&cuptiActivityRegisterCallbacks) register_callbacks = nullptr;
    decltype(&cuptiActivityEnable) enable = nullptr;
    decltype(&cuptiActivityDisable) disable = nullptr;
    decltype(&cuptiActivityFlushAll) flush_all = nullptr;
    decltype(&cuptiActivityGetNextRecord) next_record = nullptr;
    decltype(&cuptiActivityGetNumDroppedRecords) num_dropped = nullptr;
} api;

using Span = std::pair<uint64_t, uint64_t>;  // a kernel's (start, end) in ns
struct Records {
    std::vector<Span> kernels;
    size_t dropped = 0;
};
struct Collected {
    std::mutex mutex;
    Records records;
};

// Never destroyed: CUPTI may still call back while the process exits.
Collected &collected() {
    static auto *c = new Collected;
    return *c;
}

Records take() {
    Collected &c = collected();
    std::lock_guard<std::mutex> lock(c.mutex);
    return std::exchange(c.records, Records{});
}

constexpr size_t kBufferBytes = 1 << 20;  // some 5000 kernel records

void CUPTIAPI buffer_requested(uint8_t **buffer, size_t *size, size_t *max_records) {
    *buffer = static_cast<uint8_t *>(std::malloc(kBufferBytes));  // CUPTI needs 8-byte alignment
    *size = *buffer ? kBufferBytes : 0;
    *max_records = 0;  // as many as fit
}

void CUPTIAPI buffer_completed(CUcontext ctx, uint32_t stream, uint8_t *buffer, size_t,
                               size_t valid) {
    Collected &c = collected();
    std::lock_guard<std::mutex> lock(c.mutex);
    CUpti_Activity *record = nullptr;
    while (api.next_record(buffer, valid, &record) == CUPTI_SUCCESS) {
        if (record->kind != CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) continue;
        const auto *k = reinterpret_cast<const KernelRecord *>(record);
        c.records.kernels.emplace_back(k->start, k->end);
    }
    size_t dropped = 0;
    if (api.num_dropped(ctx, stream, &dropped) == CUPTI_SUCCESS) c.records.dropped += dropped;
    std::free(buffer);
}

void check(CUptiResult r, const char *what) {
    if (r == CUPTI_SUCCESS) return;
    const char *text = nullptr;
    if (api.result_string) api.result_string(r, &text);
    throw Error(std::string("--cupti: ") + what +
                " failed: " + (text ? text : "CUPTI error " + std::to_string(r)));
}

template <typename F>
void resolve(void *lib, F &fn, const char *name, const std::string &path) {
    fn = reinterpret_cast<F>(dlsym(lib, name));
    if (!fn) throw Error("--cupti: " + path + " lacks " + name);
}

}  // namespace

CuptiTracer::CuptiTracer() {
    std::vector<std::string> candidates;
    if (const char *env = std::getenv("FUSELAB_CUPTI_LIB"); env && *env) candidates.push_back(env);
#ifdef FUSELAB_CUPTI_BUILD_LIB
    candidates.push_back(FUSELAB_CUPTI_BUILD_LIB);
#endif
    for (const char *name : {"libcupti.so", "libcupti.so.12", "libcupti.so.13"})
        candidates.push_back(name);

    void *lib = nullptr;
    std::string path, failed;
    for (const std::string &c : candidates) {
        // Never dlclose'd: CUPTI stays hooked into the driver until the process ends.
        if ((lib = dlopen(c.c_str(), RTLD_NOW | RTLD_LOCAL))) {
            path = c;
            break;
        }
        const char *why = dlerror();
        failed += "\n  " + c + ": " + (why ? why : "not loadable");
    }
    if (!lib) {
        throw Error("--cupti: cannot load libcupti (set FUSELAB_CUPTI_LIB to its path); tried:" +
                    failed);
    }
    resolve(lib, api.get_version, "cuptiGetVersion", path);
    resolve(lib, api.result_string, "cuptiGetResultString", path);
    resolve(lib, api.register_callbacks, "cuptiActivityRegisterCallbacks", path);
    resolve(lib, api.enable, "cuptiActivityEnable", path);
    resolve(lib, api.disable, "cuptiActivityDisable", path);
    resolve(lib, api.flush_all, "cuptiActivityFlushAll", path);
    resolve(lib, api.next_record, "cuptiActivityGetNextRecord", path);
    resolve(lib, api.num_dropped, "cuptiActivityGetNumDroppedRecords", path);

    uint32_t version = 0;
    check(api.get_version(&version), "cuptiGetVersion");
    check(api.register_callbacks(buffer_requested, buffer_completed),
          "cuptiActivityRegisterCallbacks");
    description_ = path + " (CUPTI API version " + std::to_string(version) + ")";
    if (!failed.empty()) description_ += "; not loadable before it:" + failed;
}

CuptiTracer::~CuptiTracer() {
    api.flush_all(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    take();
}

std::vector<CallTrace> CuptiTracer::trace(const std::function<void()> &call, int calls) {
    // Whatever an earlier failed trace left in CUPTI's buffers must not count here.
    check(api.flush_all(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED), "cuptiActivityFlushAll");
    take();
    // CONCURRENT_KERNEL, not KERNEL: the latter serializes every kernel launch.
    check(api.enable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL), "cuptiActivityEnable");
    struct Off {  // tracing stops however this returns
        ~Off() { api.disable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL); }
    } off;

    std::vector<CallTrace> out;
    for (int i = 0; i < calls; i++) {
        call();
        // After the call's device sync its records are complete; a forced flush hands over all
        // of them, including those in a partly filled buffer.
        check(api.flush_all(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED), "cuptiActivityFlushAll");
        const Records got = take();
        if (got.dropped) {
            throw Error("--cupti: CUPTI dropped " + std::to_string(got.dropped) +
                        " activity records");
        }
        CallTrace t;
        t.kernels = static_cast<int>(got.kernels.size());
        for (const auto &[start, end] : got.kernels) {
            if (start == 0 || end < start)
                throw Error("--cupti: CUPTI returned a kernel record without timestamps");
            t.kernel_us += (end - start) / 1e3;
        }
        out.push_back(t);
    }
    return out;
}

#endif

}  // namespace fuselab
