// The seed's §1.4 kernels, as written there, behind Halide's generic calling convention
// (NAME_argv, NAME_metadata) so that the runtime, the tests and the bench treat them like any
// other add_relu variant. Buffers come and go through Halide's CUDA device interface; the
// kernels run in the same (primary) context on the stream Halide's runtime gives the calling
// thread (the stream passed to fuselab::invoke), as Halide's own kernels do.
#include <cuda_runtime.h>

#include <string>

#include "HalideRuntime.h"
#include "HalideRuntimeCuda.h"

// Halide's runtime: the stream it gives this thread (not declared in its headers).
extern "C" int halide_cuda_get_stream(void *user_context, void *ctx, void **stream);

// --- the seed's kernels ----------------------------------------------------------------------
__global__ void add_kernel(float *a, float *b, float *c, int n) {
    int idx = threadIdx.x + blockIdx.x * blockDim.x;
    if (idx < n) c[idx] = a[idx] + b[idx];
}

__global__ void relu_kernel(float *c, float *d, int n) {
    int idx = threadIdx.x + blockIdx.x * blockDim.x;
    if (idx < n) d[idx] = max(0.0f, c[idx]);
}

__global__ void fused_add_relu_kernel(float *a, float *b, float *d, int n) {
    int idx = threadIdx.x + blockIdx.x * blockDim.x;
    if (idx < n) {
        float tmp = a[idx] + b[idx];
        d[idx] = max(0.0f, tmp);
    }
}

// --- glue ------------------------------------------------------------------------------------
namespace {

constexpr int kBlock = 256;

int fail(const char *what, cudaError_t e) {
    const std::string msg =
        std::string(what) + ": " + cudaGetErrorName(e) + " (" + cudaGetErrorString(e) + ")";
    halide_error(nullptr, msg.c_str());
    return halide_error_code_device_run_failed;
}

float *device_ptr(halide_buffer_t *b) {
    return reinterpret_cast<float *>(b->device);
}

// Puts inputs on the device and gives the output device memory; checks n.
int prepare(void **args, int *n) {
    auto *a = static_cast<halide_buffer_t *>(args[0]);
    auto *b = static_cast<halide_buffer_t *>(args[1]);
    auto *out = static_cast<halide_buffer_t *>(args[2]);
    *n = a->dim[0].extent;
    if (b->dim[0].extent != *n || out->dim[0].extent != *n) {
        halide_error(nullptr, "seed kernels: a, b and out must have the same extent");
        return halide_error_code_bad_dimensions;
    }
    for (halide_buffer_t *buf : {a, b, out}) {
        if (buf->dim[0].stride != 1) {
            halide_error(nullptr, "seed kernels: buffers must be dense");
            return halide_error_code_constraint_violated;
        }
    }
    const halide_device_interface_t *cuda = halide_cuda_device_interface();
    if (int r = halide_copy_to_device(nullptr, a, cuda)) return r;
    if (int r = halide_copy_to_device(nullptr, b, cuda)) return r;
    if (int r = halide_device_malloc(nullptr, out, cuda)) return r;
    return 0;
}

int finish(halide_buffer_t *out) {
    if (cudaError_t e = cudaGetLastError()) return fail("seed kernel launch", e);
    out->flags |= halide_buffer_flag_device_dirty;
    out->flags &= ~uint64_t(halide_buffer_flag_host_dirty);
    return 0;
}

// The stream of this call: what Halide's runtime answers for this thread (fuselab's handler
// gives the stream passed to invoke; nullptr is the legacy default stream).
cudaStream_t stream_of_call() {
    void *s = nullptr;
    halide_cuda_get_stream(nullptr, nullptr, &s);
    return static_cast<cudaStream_t>(s);
}

// The seed's intermediate c, from the stream-ordered allocator: allocated and freed on the
// call's stream, so that concurrent calls on other streams or threads never share it, and a
// CUDA graph can capture it. The pool keeps its memory (no cudaMalloc after the first calls).
float *scratch(int n, cudaStream_t stream, cudaError_t *err) {
    static const cudaError_t pool = [] {
        cudaMemPool_t p;
        uint64_t keep = UINT64_MAX;
        cudaError_t e = cudaDeviceGetDefaultMemPool(&p, 0);
        return e ? e : cudaMemPoolSetAttribute(p, cudaMemPoolAttrReleaseThreshold, &keep);
    }();
    void *c = nullptr;
    if ((*err = pool) != cudaSuccess) return nullptr;
    if ((*err = cudaMallocAsync(&c, sizeof(float) * size_t(n), stream)) != cudaSuccess)
        return nullptr;
    return static_cast<float *>(c);
}

const int64_t estimates[2] = {0, int64_t(1) << 28};
const int64_t *estimate_ptrs[2] = {&estimates[0], &estimates[1]};
const halide_filter_argument_t arguments[3] = {
    {"a", halide_argument_kind_input_buffer, 1, halide_type_t(halide_type_float, 32), nullptr,
     nullptr, nullptr, nullptr, estimate_ptrs},
    {"b", halide_argument_kind_input_buffer, 1, halide_type_t(halide_type_float, 32), nullptr,
     nullptr, nullptr, nullptr, estimate_ptrs},
    {"out", halide_argument_kind_output_buffer, 1, halide_type_t(halide_type_float, 32), nullptr,
     nullptr, nullptr, nullptr, estimate_ptrs},
};

}  // namespace

extern "C" int add_relu__seed_unfused__cuda_argv(void **args) {
    int n = 0;
    if (int r = prepare(args, &n)) return r;
    auto *a = static_cast<halide_buffer_t *>(args[0]);
    auto *b = static_cast<halide_buffer_t *>(args[1]);
    auto *out = static_cast<halide_buffer_t *>(args[2]);
    const cudaStream_t stream = stream_of_call();
    cudaError_t err = cudaSuccess;
    float *c = scratch(n, stream, &err);
    if (!c) return fail("cudaMallocAsync of the intermediate c", err);
    const int grid = (n + kBlock - 1) / kBlock;
    add_kernel<<<grid, kBlock, 0, stream>>>(device_ptr(a), device_ptr(b), c, n);
    relu_kernel<<<grid, kBlock, 0, stream>>>(c, device_ptr(out), n);
    if ((err = cudaFreeAsync(c, stream)) != cudaSuccess) return fail("cudaFreeAsync of c", err);
    return finish(out);
}

extern "C" int add_relu__seed_fused__cuda_argv(void **args) {
    int n = 0;
    if (int r = prepare(args, &n)) return r;
    auto *a = static_cast<halide_buffer_t *>(args[0]);
    auto *b = static_cast<halide_buffer_t *>(args[1]);
    auto *out = static_cast<halide_buffer_t *>(args[2]);
    const int grid = (n + kBlock - 1) / kBlock;
    fused_add_relu_kernel<<<grid, kBlock, 0, stream_of_call()>>>(device_ptr(a), device_ptr(b),
                                                                 device_ptr(out), n);
    return finish(out);
}

extern "C" const halide_filter_metadata_t *add_relu__seed_unfused__cuda_metadata() {
    static const halide_filter_metadata_t md = {halide_filter_metadata_t::VERSION, 3, arguments,
                                                "x86-64-linux-cuda",
                                                "add_relu__seed_unfused__cuda"};
    return &md;
}

extern "C" const halide_filter_metadata_t *add_relu__seed_fused__cuda_metadata() {
    static const halide_filter_metadata_t md = {halide_filter_metadata_t::VERSION, 3, arguments,
                                                "x86-64-linux-cuda", "add_relu__seed_fused__cuda"};
    return &md;
}
