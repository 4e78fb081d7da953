// The row reductions of a transformer layer (../shared/WORKLOADS.md, "Row reductions"): softmax,
// RMSNorm with its residual add, LayerNorm. x is N x M in Halide's order (a row of N elements is
// dimension 0, contiguous; torch's [M][N]); every argument has the storage type, the math is
// float32, and each output is rounded to the type once.
#include <algorithm>
#include <cmath>
#include <string>

#include "fuselab/dtype.h"
#include "fuselab/workloads.h"

namespace fuselab {
namespace {

using Ref = Halide::Runtime::Buffer<double>;

double norm_tolerance(const std::string &dtype) {
    return dtype == "bfloat16" ? 1e-2 : dtype == "float16" ? 2e-3 : 1e-5;
}

// One rounding to the type (half its unit in the last place, relative: 2^-8 for bfloat16,
// 2^-11 for float16) on top of float32 math (exp, a sum over the row in any order, one sqrt);
// `atol`, in the output's own units, covers the terms that cancel (x - mean) and float16's
// subnormals (softmax at N = 262144 is 2^-18 a value, under float16's 2^-14).
ElementTolerance bound(const std::string &dtype, double atol) {
    const double math = 2e-5;
    if (dtype == "bfloat16") return {atol + 1e-6, 0x1p-8 + math};
    if (dtype == "float16") return {atol + 0x1p-25, 0x1p-11 + math};
    return {atol, math};
}

std::vector<ArgShape> row_args(const Size &s, std::vector<std::string> rows,
                               std::vector<std::string> vectors, std::vector<std::string> outs) {
    std::vector<ArgShape> a;
    for (const std::string &n : rows) a.push_back({n, {s[0], s[1]}, false});
    for (const std::string &n : vectors) a.push_back({n, {s[0]}, false});
    for (const std::string &n : outs) a.push_back({n, {s[0], s[1]}, true});
    return a;
}

Workload rows(const std::string &pipeline) {
    Workload w;
    w.pipeline = pipeline;
    w.size_format = "NxM";
    w.tolerance = 1e-5;
    w.tolerance_in = norm_tolerance;
    // GPU: 2^26 elements a call (256 MB of float32), far past the 60 MB L2; CPU: 2^22.
    w.cuda_sizes = {{4096, 16384}, {256, 262144}, {1024, 65536},
                    {16384, 4096}, {65536, 1024}, {262144, 256}};
    w.cpu_sizes = {{4096, 1024}, {256, 16384}, {65536, 64}};
    // A row's length decides a row strategy's loop shapes; the row count its waves of blocks
    // (runtime/fuselab/measured.h).
    w.choice_weights = {1.0, 0.5};
    // N's alignment class a quarter unit a power of 2, up to the 16-byte vector, and a row of
    // whole vectors half a unit from one that is not: they run other code (16-byte accesses, or
    // element by element, where the adjacent forms win). Chosen by the leave-one-out table of the
    // H200 (s29: 1213 to 1232 of 1335 row cells within 1.10x, against classes up to 2^8 and no
    // vector term; results/runs/2026-12-05-h200-s29/notes.txt).
    w.choice_align_weights = {0.25, 0.0};
    w.choice_vector_weights = {0.5, 0.0};
    // The CPU's winners move with the footprint against the caches: the element count at half a
    // unit (results/runs/2026-12-05-cpu-s31/choice_weights.txt: the leave-one-out table and two
    // held-out samples, with 2^19 and 2^25-element shapes in the table; the H200's table loses
    // with it, 1195 against 1243 of 1352 cells within 1.10x, its rows all past its L2).
    w.cpu_choice_elements_weight = 0.5;
    // CUDA: how a row fills the row forms' constant chunks (1024 to 16384 elements), half a unit
    // a unit of summed difference (results/runs/2026-12-06-gpu-s38/choice_fill.txt: the H200's
    // leave-one-out 1512 -> 1538 of 1700 within 1.10x, geometric mean 1.026 -> 1.023; the H100's
    // 872 -> 870 of 924; 216 held-out cases of six seeds, each from its device's table, 193
    // within 1.10x before and after).
    w.cuda_choice_fill_weight = 0.5;
    // CUDA: a row length's side of the exact lengths (powers of 2 from 256 to 16384, where row
    // forms run kernels with N a constant), two units (results/runs/2026-12-06-gpu-s40,
    // choice_exact/: held out, the H100's table without g1's ten row lengths, picking at them
    // from one call's times of every strategy, 72 -> 85 of 90 within 1.10x, worst 1.72 -> 1.32x;
    // s39's 72 held-out cases 67 both; the leave-one-out: the H200's 1538 -> 1523 of 1700
    // (geometric mean 1.023 -> 1.026; its times at those lengths predate the exact kernels), the
    // H100's 981 -> 979 of 1050).
    w.cuda_choice_exact_weight = 2.0;
    // lane_rows runs rows of N <= 48 sixteen at a time, a row a vector lane, and longer ones a row
    // at a time (schedules/rows_common.h: lane_row): a row on the other side is a unit farther
    // (results/runs/2026-12-05-cpu-s31/choice_split.txt: leave-one-out 512 to 518 of 566).
    w.cpu_choice_split = 48;
    w.cpu_choice_split_weight = 1.0;
    // A row shorter than one AVX-512 vector (N < 16) is another unit farther from one that is
    // not: block_row runs it as one masked vector, and lane_rows won at every such row of the
    // three CPU tables but a few, where unfused did (results/runs/2026-12-07-gpu-s49/).
    w.cpu_choice_short_split = 16;
    // The CPU row forms cut a row by the host's float32 lanes in every type: whole vectors are
    // rows of 16 there (AVX-512), not of 4 float32 or 8 16-bit elements
    // (results/runs/2026-12-07-gpu-s50/).
    w.cpu_choice_vector_lanes = true;
    // No multiple of any tile: one element, a prime, under and over a warp or block's span; 2056
    // just past block_row_2k's constant chunk of 2048 (a second chunk of 8 elements). And the row
    // lengths the register form specializes on (warp_regs_1k: exactly 256; whole 32-lane vectors,
    // 384 for float32), each of a row count no block of rows divides.
    // 2048 to 16384: the bucketed forms' exact kernels (rows_forms.h: Form::exact).
    w.test_sizes = {{1, 3},   {7, 5},     {1000, 3}, {2056, 3}, {65537, 2}, {33, 17},  {256, 5},
                    {384, 3}, {20000, 2}, {2048, 3}, {4096, 2}, {8192, 2},  {16384, 2}};
    w.flops = [](const Size &) { return 0.0; };
    w.size_of = [](const Shapes &in) { return Size{in.at("x")[0], in.at("x")[1]}; };
    return w;
}

Workload softmax() {
    Workload w = rows("softmax");
    w.shapes = [](const Size &s) { return row_args(s, {"x"}, {}, {"out"}); };
    // exp(x - max) of [-1, 1] inputs: a few float32 ulps of the result, relative.
    w.element_tolerance_in = [](const Size &, const std::string &dtype, const std::string &) {
        return bound(dtype, 1e-30);
    };
    w.reference = [](const Buffers &in, const Size &s) {
        const auto &x = in.at("x");
        Ref out(s[0], s[1]);
        for (int m = 0; m < s[1]; m++) {
            double mx = -INFINITY, sum = 0;
            for (int n = 0; n < s[0]; n++) mx = std::max<double>(mx, x(n, m));
            for (int n = 0; n < s[0]; n++) sum += std::exp(double(x(n, m)) - mx);
            for (int n = 0; n < s[0]; n++) out(n, m) = std::exp(double(x(n, m)) - mx) / sum;
        }
        return RefBuffers{{"out", std::move(out)}};
    };
    return w;
}

Workload rmsnorm_residual() {
    Workload w = rows("rmsnorm_residual");
    w.shapes = [](const Size &s) { return row_args(s, {"x", "residual"}, {"w"}, {"out", "h"}); };
    // h is x + residual rounded once to the type: bit-exact (torch's own add).
    w.element_tolerance_in = [](const Size &, const std::string &dtype, const std::string &output) {
        return output == "h" ? ElementTolerance{0, 0} : bound(dtype, 1e-6);
    };
    w.reference_in = [](const Buffers &in, const Size &s, const std::string &dtype) {
        const auto &x = in.at("x");
        const auto &r = in.at("residual");
        const auto &wt = in.at("w");
        Ref out(s[0], s[1]), h(s[0], s[1]);
        for (int m = 0; m < s[1]; m++) {
            double ss = 0;
            for (int n = 0; n < s[0]; n++) {
                // float32's sum of two values of the type, then the type's rounding: torch's add
                h(n, m) = round_to(float(x(n, m)) + float(r(n, m)), dtype);
                ss += h(n, m) * h(n, m);
            }
            const double inv = 1.0 / std::sqrt(ss / s[0] + 1e-6);
            for (int n = 0; n < s[0]; n++) out(n, m) = double(wt(n)) * h(n, m) * inv;
        }
        return RefBuffers{{"out", std::move(out)}, {"h", std::move(h)}};
    };
    w.reference = [](const Buffers &in, const Size &s) {
        return reference_of(find_workload("rmsnorm_residual"), in, s, "float32");
    };
    return w;
}

Workload layernorm() {
    Workload w = rows("layernorm");
    w.shapes = [](const Size &s) { return row_args(s, {"x"}, {"w", "b"}, {"out"}); };
    // x - mean cancels: float32's error in the mean, over the row's spread, is absolute.
    w.element_tolerance_in = [](const Size &, const std::string &dtype, const std::string &) {
        return bound(dtype, 2e-5);
    };
    w.reference = [](const Buffers &in, const Size &s) {
        const auto &x = in.at("x");
        const auto &wt = in.at("w");
        const auto &b = in.at("b");
        Ref out(s[0], s[1]);
        for (int m = 0; m < s[1]; m++) {
            double mean = 0, var = 0;
            for (int n = 0; n < s[0]; n++) mean += x(n, m);
            mean /= s[0];
            for (int n = 0; n < s[0]; n++) var += (x(n, m) - mean) * (x(n, m) - mean);
            const double inv = 1.0 / std::sqrt(var / s[0] + 1e-5);
            for (int n = 0; n < s[0]; n++)
                out(n, m) = double(wt(n)) * (x(n, m) - mean) * inv + b(n);
        }
        return RefBuffers{{"out", std::move(out)}};
    };
    return w;
}

const WorkloadRegistration registered_softmax(softmax());
const WorkloadRegistration registered_rmsnorm(rmsnorm_residual());
const WorkloadRegistration registered_layernorm(layernorm());

}  // namespace
}  // namespace fuselab
