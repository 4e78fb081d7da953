// Hand-written fused conv + ReLU + 2x2 max-pool kernels (seed §1.2's vertical fusion, written by
// hand as issue 4 describes the 170 us reference): one thread per pooled pixel with all K output
// channels in registers, the 4x4xC input patch loaded once per thread, relu and pool applied in
// registers, only the pooled outputs stored. They are the yardstick for fuselab's Halide
// strategies, behind Halide's generic calling convention like add_relu.cu.
//
// Two variants differ only in where the weights live, which is the one thing a Halide 21 CUDA
// schedule cannot choose:
//   hand_const:  in __constant__ memory: ptxas reads them two at a time with uniform ULDC.64
//                instructions, once a warp, and each FFMA takes its weight as a uniform-register
//                operand (one ULDC.64 per 8 FFMAs; Nsight Compute then sees almost no
//                dispatch stalls: README, Known limits);
//   hand_global: in global memory, read with __ldg at compile-time offsets (as Halide does).
// Blocks whose patches all lie inside the image take a path without the padding checks.
// Both are specialized for C3 K16 (compile-time C and K: every index a constant; C16 fully unrolled
// spills); any other shape runs a generic kernel (runtime C, 8 channels a thread, __ldg weights).
// Measured 2026-12-01 (results/runs/2026-12-01-h200-s6): H200: 3840x2160x3x16 hand_const
// 186.5 us, hand_global 248.7 us; the generic kernel 432.0 us at 1920x1080x16x16, 276-277 us at
// 256x256x64x64.
#include <cuda_runtime.h>

#include <mutex>
#include <string>

#include "HalideRuntime.h"
#include "HalideRuntimeCuda.h"

// Halide's runtime: the stream it gives this thread (not declared in its headers).
extern "C" int halide_cuda_get_stream(void *user_context, void *ctx, void **stream);

namespace {

constexpr int kTx = 32, kTy = 4;       // threads a block: 32 pooled pixels x 4 pooled rows
constexpr int kMaxConstWeights = 432;  // C3 K16: 16 x 3 x 3 x 3
constexpr int kGenericKb = 8;          // channels a thread in the generic kernel

__constant__ float c_weights[kMaxConstWeights];
__constant__ float c_bias[16];

struct Args {
    const float *in;
    const float *w;
    const float *bias;
    float *out;
    int width, height, channels, kout;  // input W, H, C; output channels K
    int in_sy, in_sc;                   // input strides of y and c (x is dense)
    int ow, oh, out_sy, out_sk;         // output extents and strides
};

// The zero-padded 4x4 input patch of pooled pixel (px, py) in channel c. Without kGuard the
// caller knows the patch lies inside the image: one address a row, no padding checks.
template <bool kGuard>
__device__ __forceinline__ void load_patch(const Args &a, int c, int px, int py, float p[4][4]) {
    const int x0 = 2 * px - 1, y0 = 2 * py - 1;
    const float *base = a.in + size_t(c) * a.in_sc;
#pragma unroll
    for (int dy = 0; dy < 4; dy++) {
        const int yy = y0 + dy;
        const float *row = base + ptrdiff_t(yy) * a.in_sy + x0;
        const bool row_ok = !kGuard || (yy >= 0 && yy < a.height);
#pragma unroll
        for (int dx = 0; dx < 4; dx++) {
            const int xx = x0 + dx;
            const bool ok = !kGuard || (row_ok && xx >= 0 && xx < a.width);
            p[dy][dx] = ok ? __ldg(row + dx) : 0.0f;
        }
    }
}

// One channel's 3x3 taps into the 2x2 conv results of a pooled pixel; weight(ky * 3 + kx) gives
// the tap's weight.
template <typename Weight>
__device__ __forceinline__ void add_taps(float acc[4], const float p[4][4], Weight weight) {
#pragma unroll
    for (int ky = 0; ky < 3; ky++) {
#pragma unroll
        for (int kx = 0; kx < 3; kx++) {
            const float w = weight(ky * 3 + kx);
            acc[0] += p[ky][kx] * w;
            acc[1] += p[ky][kx + 1] * w;
            acc[2] += p[ky + 1][kx] * w;
            acc[3] += p[ky + 1][kx + 1] * w;
        }
    }
}

// relu(bias + max of the 2x2 conv results) == max of relu(bias + conv): max commutes with the
// monotone bias add and relu, so the pool is taken first (4 instructions a channel, not 12).
__device__ __forceinline__ void store_pooled(const Args &a, int px, int py, int k, float b,
                                             const float acc[4]) {
    const float m = fmaxf(fmaxf(acc[0], acc[1]), fmaxf(acc[2], acc[3]));
    a.out[size_t(k) * a.out_sk + size_t(py) * a.out_sy + px] = fmaxf(0.0f, m + b);
}

template <int C, int K, bool kConst, bool kGuard>
__device__ __forceinline__ void fixed_body(const Args &a, int px, int py) {
    float acc[K][4];
#pragma unroll
    for (int k = 0; k < K; k++) {
#pragma unroll
        for (int i = 0; i < 4; i++) acc[k][i] = 0.0f;
    }
#pragma unroll
    for (int c = 0; c < C; c++) {
        float p[4][4];
        load_patch<kGuard>(a, c, px, py, p);
#pragma unroll
        for (int k = 0; k < K; k++) {
            add_taps(acc[k], p, [&](int tap) {
                const int idx = (k * C + c) * 9 + tap;
                return kConst ? c_weights[idx] : __ldg(a.w + idx);
            });
        }
    }
#pragma unroll
    for (int k = 0; k < K; k++) {
        store_pooled(a, px, py, k, kConst ? c_bias[k] : __ldg(a.bias + k), acc[k]);
    }
}

template <int C, int K, bool kConst>
__global__ void __launch_bounds__(kTx *kTy, 4) fused_fixed(Args a) {
    const int x0 = blockIdx.x * kTx, y0 = blockIdx.y * kTy;
    const int px = x0 + threadIdx.x, py = y0 + threadIdx.y;
    // A block whose every patch lies inside the image skips the padding checks.
    const bool interior = x0 > 0 && y0 > 0 && 2 * (x0 + kTx) < a.width && 2 * (y0 + kTy) < a.height;
    if (interior) {
        fixed_body<C, K, kConst, false>(a, px, py);
    } else if (px < a.ow && py < a.oh) {
        fixed_body<C, K, kConst, true>(a, px, py);
    }
}

// Any C and K: kGenericKb channels a thread (blockIdx.z picks the group), runtime C.
__global__ void __launch_bounds__(kTx *kTy) fused_generic(Args a) {
    const int px = blockIdx.x * kTx + threadIdx.x, py = blockIdx.y * kTy + threadIdx.y;
    const int k0 = blockIdx.z * kGenericKb;
    if (px >= a.ow || py >= a.oh) return;
    float acc[kGenericKb][4] = {};
    for (int c = 0; c < a.channels; c++) {
        float p[4][4];
        load_patch<true>(a, c, px, py, p);
#pragma unroll
        for (int j = 0; j < kGenericKb; j++) {
            const int k = min(k0 + j, a.kout - 1);  // past K: recomputes K-1, not stored
            const float *w = a.w + (size_t(k) * a.channels + c) * 9;
            add_taps(acc[j], p, [&](int tap) { return __ldg(w + tap); });
        }
    }
#pragma unroll
    for (int j = 0; j < kGenericKb; j++) {
        if (k0 + j < a.kout) store_pooled(a, px, py, k0 + j, __ldg(a.bias + k0 + j), acc[j]);
    }
}

int fail(const char *variant, const std::string &what, int code) {
    const std::string msg = std::string(variant) + ": " + what;
    halide_error(nullptr, msg.c_str());
    return code;
}

int cuda_fail(const char *variant, const char *what, cudaError_t e) {
    return fail(variant,
                std::string(what) + ": " + cudaGetErrorName(e) + " (" + cudaGetErrorString(e) + ")",
                halide_error_code_device_run_failed);
}

// Checks the shapes as the Halide generator does, puts the inputs on the device and gives the
// output device memory.
int prepare(const char *variant, void **argv, Args *a) {
    auto *in = static_cast<halide_buffer_t *>(argv[0]);
    auto *w = static_cast<halide_buffer_t *>(argv[1]);
    auto *bias = static_cast<halide_buffer_t *>(argv[2]);
    auto *out = static_cast<halide_buffer_t *>(argv[3]);
    if (in->dimensions != 3 || w->dimensions != 4 || bias->dimensions != 1 ||
        out->dimensions != 3) {
        return fail(variant, "input, weights, bias and out must have 3, 4, 1 and 3 dimensions",
                    halide_error_code_bad_dimensions);
    }
    const int W = in->dim[0].extent, H = in->dim[1].extent, C = in->dim[2].extent;
    const int K = w->dim[3].extent;
    const bool shapes_ok = w->dim[0].extent == 3 && w->dim[1].extent == 3 &&
                           w->dim[2].extent == C && bias->dim[0].extent == K &&
                           out->dim[0].extent == W / 2 && out->dim[1].extent == H / 2 &&
                           out->dim[2].extent == K;
    if (!shapes_ok) {
        return fail(variant,
                    "extents must be input WxHxC, weights 3x3xCxK, bias K, out "
                    "(W/2)x(H/2)xK",
                    halide_error_code_constraint_violated);
    }
    const bool dense = in->dim[0].stride == 1 && out->dim[0].stride == 1 && w->dim[0].stride == 1 &&
                       w->dim[1].stride == 3 && w->dim[2].stride == 9 &&
                       w->dim[3].stride == 9 * C && bias->dim[0].stride == 1;
    if (!dense) {
        return fail(variant, "x must be dense and weights in PyTorch's [k][c][ky][kx] order",
                    halide_error_code_constraint_violated);
    }
    const halide_device_interface_t *cuda = halide_cuda_device_interface();
    for (halide_buffer_t *b : {in, w, bias}) {
        if (int r = halide_copy_to_device(nullptr, b, cuda)) return r;
    }
    if (int r = halide_device_malloc(nullptr, out, cuda)) return r;
    auto ptr = [](halide_buffer_t *b) { return reinterpret_cast<float *>(b->device); };
    *a = Args{ptr(in),
              ptr(w),
              ptr(bias),
              ptr(out),
              W,
              H,
              C,
              K,
              in->dim[1].stride,
              in->dim[2].stride,
              W / 2,
              H / 2,
              out->dim[1].stride,
              out->dim[2].stride};
    return 0;
}

// The stream of this call: what Halide's runtime answers for this thread (fuselab's handler
// gives the stream passed to invoke; nullptr is the legacy default stream).
cudaStream_t stream_of_call() {
    void *s = nullptr;
    halide_cuda_get_stream(nullptr, nullptr, &s);
    return static_cast<cudaStream_t>(s);
}

// The constant bank is one per process: calls on any stream or thread take turns at it. Each
// waits (on its stream, not on the host) for the last kernel that read it, then copies its
// weights and launches, and marks its kernel as the last reader.
struct ConstantBank {
    std::mutex m;
    cudaEvent_t last_reader = nullptr;
};
ConstantBank &constant_bank() {
    static ConstantBank bank;
    return bank;
}

int run(const char *variant, void **argv, bool use_const) {
    Args a;
    if (int r = prepare(variant, argv, &a)) return r;
    auto *out = static_cast<halide_buffer_t *>(argv[3]);
    if (a.ow > 0 && a.oh > 0) {
        const dim3 block(kTx, kTy);
        dim3 grid((a.ow + kTx - 1) / kTx, (a.oh + kTy - 1) / kTy);
        const bool c3k16 = a.channels == 3 && a.kout == 16;
        const cudaStream_t stream = stream_of_call();
        if (use_const && c3k16) {
            ConstantBank &bank = constant_bank();
            std::lock_guard<std::mutex> lock(bank.m);
            if (!bank.last_reader) {
                if (cudaError_t e = cudaEventCreateWithFlags(&bank.last_reader,
                                                             cudaEventDisableTiming))
                    return cuda_fail(variant, "creating the constant bank's event", e);
            } else if (cudaError_t e = cudaStreamWaitEvent(stream, bank.last_reader, 0)) {
                return cuda_fail(variant, "waiting for the constant bank's last reader", e);
            }
            // Device to device into the constant bank, ordered before the kernel on its stream.
            const size_t n_w = size_t(a.kout) * a.channels * 9;
            if (cudaError_t e = cudaMemcpyToSymbolAsync(c_weights, a.w, sizeof(float) * n_w, 0,
                                                        cudaMemcpyDeviceToDevice, stream)) {
                return cuda_fail(variant, "copying the weights to constant memory", e);
            }
            if (cudaError_t e = cudaMemcpyToSymbolAsync(c_bias, a.bias, sizeof(float) * a.kout, 0,
                                                        cudaMemcpyDeviceToDevice, stream)) {
                return cuda_fail(variant, "copying the bias to constant memory", e);
            }
            fused_fixed<3, 16, true><<<grid, block, 0, stream>>>(a);
            if (cudaError_t e = cudaGetLastError()) return cuda_fail(variant, "kernel launch", e);
            if (cudaError_t e = cudaEventRecord(bank.last_reader, stream))
                return cuda_fail(variant, "marking the constant bank's last reader", e);
        } else if (c3k16) {
            fused_fixed<3, 16, false><<<grid, block, 0, stream>>>(a);
        } else {
            grid.z = (a.kout + kGenericKb - 1) / kGenericKb;
            fused_generic<<<grid, block, 0, stream>>>(a);
        }
        if (cudaError_t e = cudaGetLastError()) return cuda_fail(variant, "kernel launch", e);
    }
    out->flags |= halide_buffer_flag_device_dirty;
    out->flags &= ~uint64_t(halide_buffer_flag_host_dirty);
    return 0;
}

const int64_t est_in[6] = {0, 3840, 0, 2160, 0, 3};
const int64_t est_w[8] = {0, 3, 0, 3, 0, 3, 0, 16};
const int64_t est_b[2] = {0, 16};
const int64_t est_out[6] = {0, 1920, 0, 1080, 0, 16};
const int64_t *est_in_p[6] = {&est_in[0], &est_in[1], &est_in[2],
                              &est_in[3], &est_in[4], &est_in[5]};
const int64_t *est_w_p[8] = {&est_w[0], &est_w[1], &est_w[2], &est_w[3],
                             &est_w[4], &est_w[5], &est_w[6], &est_w[7]};
const int64_t *est_b_p[2] = {&est_b[0], &est_b[1]};
const int64_t *est_out_p[6] = {&est_out[0], &est_out[1], &est_out[2],
                               &est_out[3], &est_out[4], &est_out[5]};
const halide_type_t f32(halide_type_float, 32);
const halide_filter_argument_t arguments[4] = {
    {"input", halide_argument_kind_input_buffer, 3, f32, nullptr, nullptr, nullptr, nullptr,
     est_in_p},
    {"weights", halide_argument_kind_input_buffer, 4, f32, nullptr, nullptr, nullptr, nullptr,
     est_w_p},
    {"bias", halide_argument_kind_input_buffer, 1, f32, nullptr, nullptr, nullptr, nullptr,
     est_b_p},
    {"out", halide_argument_kind_output_buffer, 3, f32, nullptr, nullptr, nullptr, nullptr,
     est_out_p},
};

}  // namespace

extern "C" int conv_relu_pool__hand_const__cuda_argv(void **argv) {
    return run("conv_relu_pool__hand_const__cuda", argv, true);
}

extern "C" int conv_relu_pool__hand_global__cuda_argv(void **argv) {
    return run("conv_relu_pool__hand_global__cuda", argv, false);
}

extern "C" const halide_filter_metadata_t *conv_relu_pool__hand_const__cuda_metadata() {
    static const halide_filter_metadata_t md = {halide_filter_metadata_t::VERSION, 4, arguments,
                                                "x86-64-linux-cuda",
                                                "conv_relu_pool__hand_const__cuda"};
    return &md;
}

extern "C" const halide_filter_metadata_t *conv_relu_pool__hand_global__cuda_metadata() {
    static const halide_filter_metadata_t md = {halide_filter_metadata_t::VERSION, 4, arguments,
                                                "x86-64-linux-cuda",
                                                "conv_relu_pool__hand_global__cuda"};
    return &md;
}
