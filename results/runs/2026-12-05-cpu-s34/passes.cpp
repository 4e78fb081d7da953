// passes.cpp: a diagnosis, not fuselab code. Float32 softmax over rows of 2^22 elements, one
// thread, from memory, hand-written with AVX-512 intrinsics and one exponential (math.h's
// exp_nonpositive_cpu, the same 12 operations), in five pass structures:
//   inplace            ONNX Runtime's (MLAS): max; exp(x - max) stored to out, summed; out *= 1/sum
//                      in place (the out lines' misses under the exponential's arithmetic)
//   scratch            fuselab's block_row: max; exp to a row of scratch, summed; out = scratch/sum
//   scratch_prefetchw  scratch, with a prefetch-for-write of out's lines in the exp pass
//   recompute          max; sum of exp; out = exp(x - max)/sum (two exponentials, no scratch)
//   recompute_inplace  max; sum of exp; exp stored to out; out *= 1/sum in place
// Each: the median of 15 calls, three rounds. Built and run as
//   g++ -O2 -mavx512f -mavx512dq -o /tmp/passes passes.cpp && /tmp/passes N [offset [log2 elements]]
#include <immintrin.h>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <cstring>
#include <cmath>
#include <functional>
static inline __m512 expv(__m512 d) {
    __m512 v = _mm512_max_ps(d, _mm512_set1_ps(-88.2f));
    __m512 t = _mm512_fmadd_ps(v, _mm512_set1_ps(1.44269504f), _mm512_set1_ps(12583039.0f));
    __m512i bits = _mm512_castps_si512(t);
    __m512 k = _mm512_cvtepi32_ps(_mm512_sub_epi32(bits, _mm512_set1_epi32(0x4b40007f)));
    __m512 r = _mm512_fnmadd_ps(k, _mm512_set1_ps(0.693145752f), v);
    r = _mm512_fnmadd_ps(k, _mm512_set1_ps(1.42860677e-6f), r);
    __m512 p = _mm512_set1_ps(0.0082903029f);
    p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(0.041897915f));
    p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(0.16667636f));
    p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(0.49999151f));
    p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(0.9999997f));
    p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.0f));
    return _mm512_mul_ps(_mm512_castsi512_ps(_mm512_slli_epi32(bits, 23)), p);
}
static float rowmax(const float *x, int n) {
    __m512 m0 = _mm512_set1_ps(-INFINITY), m1 = m0, m2 = m0, m3 = m0;
    for (int k = 0; k < n; k += 64) {
        m0 = _mm512_max_ps(m0, _mm512_loadu_ps(x + k)); m1 = _mm512_max_ps(m1, _mm512_loadu_ps(x + k + 16));
        m2 = _mm512_max_ps(m2, _mm512_loadu_ps(x + k + 32)); m3 = _mm512_max_ps(m3, _mm512_loadu_ps(x + k + 48));
    }
    return _mm512_reduce_max_ps(_mm512_max_ps(_mm512_max_ps(m0, m1), _mm512_max_ps(m2, m3)));
}
static float expsum(const float *x, float *y, int n, float mx) {
    __m512 s0 = _mm512_setzero_ps(), s1 = s0, s2 = s0, s3 = s0, m = _mm512_set1_ps(mx);
    for (int k = 0; k < n; k += 64) {
        __m512 e0 = expv(_mm512_sub_ps(_mm512_loadu_ps(x + k), m)); _mm512_storeu_ps(y + k, e0); s0 = _mm512_add_ps(s0, e0);
        __m512 e1 = expv(_mm512_sub_ps(_mm512_loadu_ps(x + k + 16), m)); _mm512_storeu_ps(y + k + 16, e1); s1 = _mm512_add_ps(s1, e1);
        __m512 e2 = expv(_mm512_sub_ps(_mm512_loadu_ps(x + k + 32), m)); _mm512_storeu_ps(y + k + 32, e2); s2 = _mm512_add_ps(s2, e2);
        __m512 e3 = expv(_mm512_sub_ps(_mm512_loadu_ps(x + k + 48), m)); _mm512_storeu_ps(y + k + 48, e3); s3 = _mm512_add_ps(s3, e3);
    }
    return _mm512_reduce_add_ps(_mm512_add_ps(_mm512_add_ps(s0, s1), _mm512_add_ps(s2, s3)));
}
static float expsum_pf(const float *x, float *y, float *o, int n, float mx) {
    __m512 s0 = _mm512_setzero_ps(), s1 = s0, s2 = s0, s3 = s0, m = _mm512_set1_ps(mx);
    for (int k = 0; k < n; k += 64) {
        _mm_prefetch((const char *)(o + k), _MM_HINT_ET0); _mm_prefetch((const char *)(o + k + 16), _MM_HINT_ET0);
        _mm_prefetch((const char *)(o + k + 32), _MM_HINT_ET0); _mm_prefetch((const char *)(o + k + 48), _MM_HINT_ET0);
        __m512 e0 = expv(_mm512_sub_ps(_mm512_loadu_ps(x + k), m)); _mm512_storeu_ps(y + k, e0); s0 = _mm512_add_ps(s0, e0);
        __m512 e1 = expv(_mm512_sub_ps(_mm512_loadu_ps(x + k + 16), m)); _mm512_storeu_ps(y + k + 16, e1); s1 = _mm512_add_ps(s1, e1);
        __m512 e2 = expv(_mm512_sub_ps(_mm512_loadu_ps(x + k + 32), m)); _mm512_storeu_ps(y + k + 32, e2); s2 = _mm512_add_ps(s2, e2);
        __m512 e3 = expv(_mm512_sub_ps(_mm512_loadu_ps(x + k + 48), m)); _mm512_storeu_ps(y + k + 48, e3); s3 = _mm512_add_ps(s3, e3);
    }
    return _mm512_reduce_add_ps(_mm512_add_ps(_mm512_add_ps(s0, s1), _mm512_add_ps(s2, s3)));
}
static float sumonly(const float *x, int n, float mx) {
    __m512 s0 = _mm512_setzero_ps(), s1 = s0, s2 = s0, s3 = s0, m = _mm512_set1_ps(mx);
    for (int k = 0; k < n; k += 64) {
        s0 = _mm512_add_ps(s0, expv(_mm512_sub_ps(_mm512_loadu_ps(x + k), m)));
        s1 = _mm512_add_ps(s1, expv(_mm512_sub_ps(_mm512_loadu_ps(x + k + 16), m)));
        s2 = _mm512_add_ps(s2, expv(_mm512_sub_ps(_mm512_loadu_ps(x + k + 32), m)));
        s3 = _mm512_add_ps(s3, expv(_mm512_sub_ps(_mm512_loadu_ps(x + k + 48), m)));
    }
    return _mm512_reduce_add_ps(_mm512_add_ps(_mm512_add_ps(s0, s1), _mm512_add_ps(s2, s3)));
}
static void expout(const float *x, float *o, int n, float mx, float inv) {
    __m512 m = _mm512_set1_ps(mx), v = _mm512_set1_ps(inv);
    for (int k = 0; k < n; k += 16) _mm512_storeu_ps(o + k, _mm512_mul_ps(expv(_mm512_sub_ps(_mm512_loadu_ps(x + k), m)), v));
}
static void scale(const float *y, float *o, int n, float inv) {
    __m512 v = _mm512_set1_ps(inv);
    for (int k = 0; k < n; k += 64) {
        _mm512_storeu_ps(o + k, _mm512_mul_ps(_mm512_loadu_ps(y + k), v)); _mm512_storeu_ps(o + k + 16, _mm512_mul_ps(_mm512_loadu_ps(y + k + 16), v));
        _mm512_storeu_ps(o + k + 32, _mm512_mul_ps(_mm512_loadu_ps(y + k + 32), v)); _mm512_storeu_ps(o + k + 48, _mm512_mul_ps(_mm512_loadu_ps(y + k + 48), v));
    }
}
int main(int argc, char **argv) {
    int N = atoi(argv[1]), M = (argc > 3 ? (1 << atoi(argv[3])) : (1 << 22)) / N;
    float *x = (float *)aligned_alloc(64, sizeof(float) * N * M), *o = (float *)aligned_alloc(64, sizeof(float) * N * M);
    float *scr = (float *)aligned_alloc(64, sizeof(float) * N + 4096);
    for (long i = 0; i < (long)N * M; i++) x[i] = (rand() / (float)RAND_MAX) * 2 - 1, o[i] = 0;
    int off = argc > 2 ? atoi(argv[2]) : 0;
    float *s = scr + off;
    auto ort = [&] { for (int m = 0; m < M; m++) { const float *xr = x + (long)m * N; float *or_ = o + (long)m * N; float mx = rowmax(xr, N); float sm = expsum(xr, or_, N, mx); scale(or_, or_, N, 1.0f / sm); } };
    auto fl = [&] { for (int m = 0; m < M; m++) { const float *xr = x + (long)m * N; float *or_ = o + (long)m * N; float mx = rowmax(xr, N); float sm = expsum(xr, s, N, mx); scale(s, or_, N, 1.0f / sm); } };
    auto pf = [&] { for (int m = 0; m < M; m++) { const float *xr = x + (long)m * N; float *or_ = o + (long)m * N; float mx = rowmax(xr, N); float sm = expsum_pf(xr, s, or_, N, mx); scale(s, or_, N, 1.0f / sm); } };
    auto rc = [&] { for (int m = 0; m < M; m++) { const float *xr = x + (long)m * N; float *or_ = o + (long)m * N; float mx = rowmax(xr, N); float sm = sumonly(xr, N, mx); expout(xr, or_, N, mx, 1.0f / sm); } };
    auto rci = [&] { for (int m = 0; m < M; m++) { const float *xr = x + (long)m * N; float *or_ = o + (long)m * N; float mx = rowmax(xr, N); float sm = sumonly(xr, N, mx); expout(xr, or_, N, mx, 1.0f); scale(or_, or_, N, 1.0f / sm); } };
    const char *names[] = {"inplace", "scratch", "scratch_prefetchw", "recompute", "recompute_inplace"};
    for (int rep = 0; rep < 3; rep++) {
        for (int w = 0; w < 5; w++) {
            std::vector<double> t;
            for (int b = 0; b < 15; b++) { auto t0 = std::chrono::steady_clock::now(); if (w == 0) ort(); else if (w == 1) fl(); else if (w == 2) pf(); else if (w == 3) rc(); else rci(); t.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count()); }
            std::sort(t.begin(), t.end());
            printf("N %d %s median us %.1f\n", N, names[w], t[t.size() / 2]);
        }
    }
}
