// Checks generators/math.h's CPU tanh, sigmoid and softmax's exponential against double precision
// over every 16th float bit pattern (2^28 values: every sign and exponent, most mantissas),
// JIT-compiled and vectorized for this machine's CPU and for the AVX2 fallback target, and that no
// finite input gives inf or NaN. Not part of the build:
//   g++ -std=c++17 -O2 -Wall -Wextra -isystem .venv/halide/include tools/math_check.cpp
//       -L.venv/halide/lib64 -lHalide -Wl,-rpath,$PWD/.venv/halide/lib64 -pthread -ldl
//       -o /tmp/math_check && /tmp/math_check
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>

#include "../generators/math.h"

namespace {

using Halide::Expr;

struct Stats {
    double worst_rel = 0, worst_abs = 0;
    float at_rel = 0, at_abs = 0;
    long long bad = 0;  // inf or NaN outputs
};

Stats run(const char *name, const Halide::Target &t, const std::function<Expr(Expr)> &fn,
          double (*ref)(double)) {
    const int n = 1 << 24;
    Halide::Buffer<float> in(n), out(n);
    Halide::Var i{"i"};
    Halide::Func f{std::string("check_") + name};
    f(i) = fn(in(i));
    f.vectorize(i, t.natural_vector_size<float>());
    f.compile_jit(t);
    Stats s;
    for (uint64_t base = 0; base < (uint64_t(1) << 32); base += uint64_t(n) * 16) {
        int m = 0;
        for (int j = 0; j < n; j++) {
            const uint32_t bits = static_cast<uint32_t>(base + uint64_t(j) * 16);
            float v;
            std::memcpy(&v, &bits, 4);
            if (std::isfinite(v)) in(m++) = v;
        }
        for (int j = m; j < n; j++) in(j) = 0.0f;
        f.realize(out, t);
        for (int j = 0; j < m; j++) {
            const float y = out(j);
            if (!std::isfinite(y)) {
                s.bad++;
                continue;
            }
            const double r = ref(double(in(j)));
            const double abs_err = std::fabs(y - r);
            // Relative where the exact result is a normal float; absolute below that.
            const double rel = std::fabs(r) > 1.2e-38 ? abs_err / std::fabs(r) : 0.0;
            if (rel > s.worst_rel) s.worst_rel = rel, s.at_rel = in(j);
            if (abs_err > s.worst_abs) s.worst_abs = abs_err, s.at_abs = in(j);
        }
    }
    std::printf(
        "%-8s %-40s worst relative %.2e (at %.6g), worst absolute %.2e (at %.6g), "
        "%lld inf/NaN\n",
        name, t.to_string().c_str(), s.worst_rel, s.at_rel, s.worst_abs, s.at_abs, s.bad);
    return s;
}

}  // namespace

int main() try {
    const Halide::Target host = Halide::get_host_target();
    const Halide::Target avx2("x86-64-linux-avx-avx2-f16c-fma-sse41");
    bool ok = true;
    for (const Halide::Target &t : {host, avx2}) {
        const Stats th = run(
            "tanh", t, [](Expr v) { return fuselab::tanh_cpu(v); },
            [](double v) { return std::tanh(v); });
        const Stats sg = run(
            "sigmoid", t, [&](Expr v) { return fuselab::sigmoid(v, t); },
            [](double v) { return 1.0 / (1.0 + std::exp(-v)); });
        // softmax's exponential over d = -|v| (its argument is never above 0): relative where
        // e^d is a normal float, absolute (exactly 0 past -88.2) below
        const Stats ex = run(
            "exp<=0", t, [](Expr v) { return fuselab::exp_nonpositive_cpu(-Halide::abs(v)); },
            [](double v) { return std::exp(-std::fabs(v)); });
        ok &= th.bad == 0 && sg.bad == 0 && th.worst_rel < 1e-6 && sg.worst_rel < 1e-6;
        ok &= ex.bad == 0 && ex.worst_rel < 1e-6;
    }
    std::printf("%s\n", ok ? "ok" : "FAILED");
    return ok ? 0 : 1;
} catch (const Halide::Error &e) {
    std::fprintf(stderr, "math_check: %s\n", e.what());
    return 2;
}
