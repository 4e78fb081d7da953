// The CPU's copy bandwidth and fp32 FMA peak (cpu_probe.h). The vector kernels carry target
// attributes and are called only where __builtin_cpu_supports says the CPU has the ISA, so this
// file is compiled with the project's flags alone (no -m options).
#include "cpu_probe.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <stdexcept>
#include <thread>

#if defined(__x86_64__) || defined(__i386__)
#define FUSELAB_PROBE_X86 1
#include <immintrin.h>
#endif
#if defined(__linux__)
#include <sched.h>
#endif

namespace fuselab {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) {
    return std::chrono::duration<double>(Clock::now() - t0).count();
}

double median(std::vector<double> v) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

enum class Isa { avx512, avx2, sse2, generic };

// FUSELAB_PROBE_ISA=avx2|sse2|generic picks a narrower path than the CPU has (to test them).
Isa detect_isa() {
    if (const char *forced = std::getenv("FUSELAB_PROBE_ISA")) {
        const std::string f = forced;
        if (f == "generic") return Isa::generic;
#ifdef FUSELAB_PROBE_X86
        if (f == "sse2") return Isa::sse2;
        if (f == "avx2" && __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
            return Isa::avx2;
#endif
    }
#ifdef FUSELAB_PROBE_X86
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f")) return Isa::avx512;
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return Isa::avx2;
    return Isa::sse2;
#else
    return Isa::generic;
#endif
}

inline void spin_pause() {
#ifdef FUSELAB_PROBE_X86
    _mm_pause();
#endif
}

// The CPUs this process may run on, in order (Linux); empty where unknown.
std::vector<int> allowed_cpus() {
    std::vector<int> cpus;
#if defined(__linux__)
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof(set), &set) == 0) {
        for (int c = 0; c < CPU_SETSIZE; c++) {
            if (CPU_ISSET(c, &set)) cpus.push_back(c);
        }
    }
#endif
    return cpus;
}

int resolve_threads(int threads) {
    if (threads > 0) return threads;
    const size_t n = allowed_cpus().size();
    if (n > 0) return static_cast<int>(n);
    return std::max(1u, std::thread::hardware_concurrency());
}

// A team of threads that run one job together: run(f) calls f(i) on thread i (the caller is
// thread 0) and returns when all have returned. Workers wait spinning (then yielding) between
// jobs, so that a job starts within microseconds. Threads are not pinned, as Halide's thread
// pool's are not: the ceilings are those that the pipelines' own threads can reach.
class Team {
public:
    explicit Team(int n) : n_(n) {
        for (int i = 1; i < n_; i++) workers_.emplace_back([this, i] { loop(i); });
    }
    ~Team() {
        stop_.store(true);
        run([](int) {});
        for (std::thread &t : workers_) t.join();
    }
    Team(const Team &) = delete;
    Team &operator=(const Team &) = delete;

    int size() const { return n_; }

    void run(const std::function<void(int)> &f) {
        job_ = &f;
        done_.store(0, std::memory_order_relaxed);
        generation_.fetch_add(1, std::memory_order_release);
        f(0);
        done_.fetch_add(1, std::memory_order_acq_rel);
        wait_until([&] { return done_.load(std::memory_order_acquire) == n_; });
    }

private:
    template <typename Pred>
    static void wait_until(Pred ready) {
        for (long spins = 0; !ready(); spins++) {
            if (spins < 20000) {
                spin_pause();
            } else {
                std::this_thread::yield();
            }
        }
    }

    void loop(int i) {
        unsigned seen = 0;
        for (;;) {
            unsigned g = 0;
            wait_until([&] { return (g = generation_.load(std::memory_order_acquire)) != seen; });
            seen = g;
            if (stop_.load()) {
                done_.fetch_add(1, std::memory_order_acq_rel);
                return;
            }
            (*job_)(i);
            done_.fetch_add(1, std::memory_order_acq_rel);
        }
    }

    const int n_;
    std::vector<std::thread> workers_;
    const std::function<void(int)> *job_ = nullptr;
    std::atomic<unsigned> generation_{0};
    std::atomic<int> done_{0};
    std::atomic<bool> stop_{false};
};

// --- copy kernels: n floats from s to d, both 64-byte aligned ------------------------------------

void copy_memcpy(float *d, const float *s, size_t n) {
    std::memcpy(d, s, n * sizeof(float));
}

void copy_generic(float *d, const float *s, size_t n) {
    for (size_t i = 0; i < n; i++) d[i] = s[i];
}

#ifdef FUSELAB_PROBE_X86
__attribute__((target("avx512f"))) void copy_store_avx512(float *d, const float *s, size_t n) {
    size_t i = 0;
    for (; i + 64 <= n; i += 64) {
        const __m512 a = _mm512_load_ps(s + i), b = _mm512_load_ps(s + i + 16),
                     c = _mm512_load_ps(s + i + 32), e = _mm512_load_ps(s + i + 48);
        _mm512_store_ps(d + i, a);
        _mm512_store_ps(d + i + 16, b);
        _mm512_store_ps(d + i + 32, c);
        _mm512_store_ps(d + i + 48, e);
    }
    for (; i < n; i++) d[i] = s[i];
}

__attribute__((target("avx512f"))) void copy_stream_avx512(float *d, const float *s, size_t n) {
    size_t i = 0;
    for (; i + 64 <= n; i += 64) {
        const __m512 a = _mm512_load_ps(s + i), b = _mm512_load_ps(s + i + 16),
                     c = _mm512_load_ps(s + i + 32), e = _mm512_load_ps(s + i + 48);
        _mm512_stream_ps(d + i, a);
        _mm512_stream_ps(d + i + 16, b);
        _mm512_stream_ps(d + i + 32, c);
        _mm512_stream_ps(d + i + 48, e);
    }
    for (; i < n; i++) d[i] = s[i];
    _mm_sfence();
}

// The same with the slice cut in 4 parts copied side by side: 4 read and 4 write streams a thread,
// more misses in flight than one stream keeps (a core's bandwidth is bounded by its outstanding
// misses).
__attribute__((target("avx512f"))) void copy_stream4_avx512(float *d, const float *s, size_t n) {
    const size_t q = n / 64 / 4 * 64;  // floats a part, whole 64-float blocks
    for (size_t i = 0; i < q; i += 16) {
        for (int p = 0; p < 4; p++) _mm512_stream_ps(d + p * q + i, _mm512_load_ps(s + p * q + i));
    }
    for (size_t i = 4 * q; i < n; i++) d[i] = s[i];
    _mm_sfence();
}

__attribute__((target("avx2"))) void copy_stream4_avx2(float *d, const float *s, size_t n) {
    const size_t q = n / 32 / 4 * 32;
    for (size_t i = 0; i < q; i += 8) {
        for (int p = 0; p < 4; p++) _mm256_stream_ps(d + p * q + i, _mm256_load_ps(s + p * q + i));
    }
    for (size_t i = 4 * q; i < n; i++) d[i] = s[i];
    _mm_sfence();
}

__attribute__((target("avx2"))) void copy_store_avx2(float *d, const float *s, size_t n) {
    size_t i = 0;
    for (; i + 32 <= n; i += 32) {
        const __m256 a = _mm256_load_ps(s + i), b = _mm256_load_ps(s + i + 8),
                     c = _mm256_load_ps(s + i + 16), e = _mm256_load_ps(s + i + 24);
        _mm256_store_ps(d + i, a);
        _mm256_store_ps(d + i + 8, b);
        _mm256_store_ps(d + i + 16, c);
        _mm256_store_ps(d + i + 24, e);
    }
    for (; i < n; i++) d[i] = s[i];
}

__attribute__((target("avx2"))) void copy_stream_avx2(float *d, const float *s, size_t n) {
    size_t i = 0;
    for (; i + 32 <= n; i += 32) {
        const __m256 a = _mm256_load_ps(s + i), b = _mm256_load_ps(s + i + 8),
                     c = _mm256_load_ps(s + i + 16), e = _mm256_load_ps(s + i + 24);
        _mm256_stream_ps(d + i, a);
        _mm256_stream_ps(d + i + 8, b);
        _mm256_stream_ps(d + i + 16, c);
        _mm256_stream_ps(d + i + 24, e);
    }
    for (; i < n; i++) d[i] = s[i];
    _mm_sfence();
}

void copy_store_sse2(float *d, const float *s, size_t n) {
    size_t i = 0;
    for (; i + 16 <= n; i += 16) {
        const __m128 a = _mm_load_ps(s + i), b = _mm_load_ps(s + i + 4), c = _mm_load_ps(s + i + 8),
                     e = _mm_load_ps(s + i + 12);
        _mm_store_ps(d + i, a);
        _mm_store_ps(d + i + 4, b);
        _mm_store_ps(d + i + 8, c);
        _mm_store_ps(d + i + 12, e);
    }
    for (; i < n; i++) d[i] = s[i];
}

void copy_stream_sse2(float *d, const float *s, size_t n) {
    size_t i = 0;
    for (; i + 16 <= n; i += 16) {
        const __m128 a = _mm_load_ps(s + i), b = _mm_load_ps(s + i + 4), c = _mm_load_ps(s + i + 8),
                     e = _mm_load_ps(s + i + 12);
        _mm_stream_ps(d + i, a);
        _mm_stream_ps(d + i + 4, b);
        _mm_stream_ps(d + i + 8, c);
        _mm_stream_ps(d + i + 12, e);
    }
    for (; i < n; i++) d[i] = s[i];
    _mm_sfence();
}
#endif

using CopyFn = void (*)(float *, const float *, size_t);

struct CopyKernel {
    const char *name;
    CopyFn fn;
};

std::vector<CopyKernel> copy_kernels(Isa isa) {
    std::vector<CopyKernel> k{{"memcpy", copy_memcpy}};
    switch (isa) {
#ifdef FUSELAB_PROBE_X86
        case Isa::avx512:
            k.push_back({"vector_store", copy_store_avx512});
            k.push_back({"vector_stream", copy_stream_avx512});
            k.push_back({"vector_stream4", copy_stream4_avx512});
            break;
        case Isa::avx2:
            k.push_back({"vector_store", copy_store_avx2});
            k.push_back({"vector_stream", copy_stream_avx2});
            k.push_back({"vector_stream4", copy_stream4_avx2});
            break;
        case Isa::sse2:
            k.push_back({"vector_store", copy_store_sse2});
            k.push_back({"vector_stream", copy_stream_sse2});
            break;
#endif
        default:
            k.push_back({"vector_store", copy_generic});
            break;
    }
    return k;
}

struct AlignedFloats {
    explicit AlignedFloats(size_t n)
        : p(static_cast<float *>(std::aligned_alloc(64, (n * sizeof(float) + 63) / 64 * 64))) {
        if (!p) throw std::runtime_error("cpu_probe: out of memory");
    }
    ~AlignedFloats() { std::free(p); }
    AlignedFloats(const AlignedFloats &) = delete;
    AlignedFloats &operator=(const AlignedFloats &) = delete;
    float *p;
};

// Thread i's slice [begin, end) of n floats, on 16-float (64-byte) boundaries.
std::pair<size_t, size_t> slice(size_t n, int threads, int i) {
    const size_t lines = (n + 15) / 16;
    const size_t begin = std::min(n, lines * i / threads * 16);
    const size_t end = std::min(n, lines * (i + 1) / threads * 16);
    return {begin, end};
}

// --- FMA kernels: `iters` rounds of independent FMA chains on registers; returns a value that
// depends on every chain, so that nothing is optimized away ----------------------------------

constexpr float kMul = 0.999999f, kAdd = 1e-6f;  // chains converge to 1: no overflow, no denormals

#ifdef FUSELAB_PROBE_X86
constexpr int kChains512 = 16, kChains256 = 12, kChains128 = 12;

__attribute__((target("avx512f"))) float fma_avx512(long iters) {
    __m512 acc[kChains512];
    for (int j = 0; j < kChains512; j++) acc[j] = _mm512_set1_ps(0.5f + 0.01f * j);
    const __m512 m = _mm512_set1_ps(kMul), a = _mm512_set1_ps(kAdd);
    for (long it = 0; it < iters; it++) {
        for (int j = 0; j < kChains512; j++) acc[j] = _mm512_fmadd_ps(acc[j], m, a);
    }
    __m512 s = acc[0];
    for (int j = 1; j < kChains512; j++) s = _mm512_add_ps(s, acc[j]);
    float lanes[16];
    _mm512_storeu_ps(lanes, s);
    float t = 0;
    for (float v : lanes) t += v;
    return t;
}

__attribute__((target("avx2,fma"))) float fma_avx2(long iters) {
    __m256 acc[kChains256];
    for (int j = 0; j < kChains256; j++) acc[j] = _mm256_set1_ps(0.5f + 0.01f * j);
    const __m256 m = _mm256_set1_ps(kMul), a = _mm256_set1_ps(kAdd);
    for (long it = 0; it < iters; it++) {
        for (int j = 0; j < kChains256; j++) acc[j] = _mm256_fmadd_ps(acc[j], m, a);
    }
    __m256 s = acc[0];
    for (int j = 1; j < kChains256; j++) s = _mm256_add_ps(s, acc[j]);
    float lanes[8];
    _mm256_storeu_ps(lanes, s);
    float t = 0;
    for (float v : lanes) t += v;
    return t;
}

float mul_add_sse2(long iters) {
    __m128 acc[kChains128];
    for (int j = 0; j < kChains128; j++) acc[j] = _mm_set1_ps(0.5f + 0.01f * j);
    const __m128 m = _mm_set1_ps(kMul), a = _mm_set1_ps(kAdd);
    for (long it = 0; it < iters; it++) {
        for (int j = 0; j < kChains128; j++) acc[j] = _mm_add_ps(_mm_mul_ps(acc[j], m), a);
    }
    __m128 s = acc[0];
    for (int j = 1; j < kChains128; j++) s = _mm_add_ps(s, acc[j]);
    float lanes[4];
    _mm_storeu_ps(lanes, s);
    return lanes[0] + lanes[1] + lanes[2] + lanes[3];
}
#endif

float mul_add_generic(long iters) {
    float acc[8];
    for (int j = 0; j < 8; j++) acc[j] = 0.5f + 0.01f * j;
    for (long it = 0; it < iters; it++) {
        for (float &v : acc) v = v * kMul + kAdd;
    }
    float t = 0;
    for (float v : acc) t += v;
    return t;
}

struct FmaKernel {
    float (*fn)(long);
    double flops_per_iter;  // per thread
};

FmaKernel fma_kernel(Isa isa) {
    switch (isa) {
#ifdef FUSELAB_PROBE_X86
        case Isa::avx512:
            return {fma_avx512, 2.0 * 16 * kChains512};
        case Isa::avx2:
            return {fma_avx2, 2.0 * 8 * kChains256};
        case Isa::sse2:
            return {mul_add_sse2, 2.0 * 4 * kChains128};
#endif
        default:
            return {mul_add_generic, 2.0 * 8};
    }
}

}  // namespace

std::string probe_isa() {
    switch (detect_isa()) {
        case Isa::avx512:
            return "avx512f";
        case Isa::avx2:
            return "avx2+fma";
        case Isa::sse2:
            return "sse2";
        default:
            return "generic";
    }
}

std::vector<CopyMethod> copy_methods(size_t bytes, int threads, int repeats) {
    const size_t n = std::max<size_t>(bytes / sizeof(float), 16);
    Team team(resolve_threads(threads));
    AlignedFloats src(n), dst(n);
    // First touch by the thread that will copy each slice.
    team.run([&](int i) {
        const auto [b, e] = slice(n, team.size(), i);
        for (size_t j = b; j < e; j++) src.p[j] = static_cast<float>(j & 1023);
        std::memset(dst.p + b, 0, (e - b) * sizeof(float));
    });
    const std::vector<CopyKernel> kernels = copy_kernels(detect_isa());
    std::vector<std::vector<double>> gbs(kernels.size());
    // Rounds interleave the methods, so that a burst of other load on the machine does not fall
    // on one method alone; round 0 is the warm-up.
    for (int round = 0; round <= std::max(1, repeats); round++) {
        for (size_t m = 0; m < kernels.size(); m++) {
            const CopyFn fn = kernels[m].fn;
            const auto t0 = Clock::now();
            team.run([&](int i) {
                const auto [b, e] = slice(n, team.size(), i);
                fn(dst.p + b, src.p + b, e - b);
            });
            const double s = seconds_since(t0);
            if (round > 0) gbs[m].push_back(2.0 * n * sizeof(float) / s / 1e9);
        }
    }
    std::vector<CopyMethod> out;
    for (size_t m = 0; m < kernels.size(); m++) {
        CopyMethod c;
        c.name = kernels[m].name;
        c.median_gbs = median(gbs[m]);
        c.best_gbs = *std::max_element(gbs[m].begin(), gbs[m].end());
        c.repeats = static_cast<int>(gbs[m].size());
        out.push_back(c);
    }
    return out;
}

double copy_bandwidth_gbs(size_t bytes, int threads, std::vector<CopyMethod> *methods) {
    const std::vector<CopyMethod> all = copy_methods(bytes, threads);
    double best = 0;
    for (const CopyMethod &c : all) best = std::max(best, c.median_gbs);
    if (methods) *methods = all;
    return best;
}

double fma_peak_gflops(int threads) {
    const FmaKernel k = fma_kernel(detect_isa());
    Team team(resolve_threads(threads));
    std::vector<float> sink(team.size());
    auto timed = [&](long iters) {
        const auto t0 = Clock::now();
        team.run([&](int i) { sink[i] = k.fn(iters); });
        return seconds_since(t0);
    };
    // Calibrate to about 50 ms a run, then the median of 7 runs.
    long iters = 1 << 16;
    double s = timed(iters);
    while (s < 0.01) {
        iters *= 4;
        s = timed(iters);
    }
    iters = std::max(1L, static_cast<long>(iters * 0.05 / s));
    std::vector<double> gflops;
    for (int run = 0; run < 7; run++) {
        s = timed(iters);
        gflops.push_back(k.flops_per_iter * iters * team.size() / s / 1e9);
    }
    volatile float keep = 0;
    for (float v : sink) keep = keep + v;
    return median(gflops);
}

}  // namespace fuselab
