// row_search: times the row pipelines' CUDA forms (schedules/rows_forms.h) over a grid of their
// numbers, and the shipped strategies beside them, on the GPU it runs on: Halide 21 JIT-compiles
// each candidate from the project's own generators with N and M known only at run time, as the
// AOT variants have them, checks sampled rows of every output against float64, and times
// back-to-back calls (the median of batches, each ending with a device sync). Prints one CSV row a
// (pipeline, dtype, candidate, N); a candidate that refuses N (a staged row too long) is skipped.
//
//   fuselab_row_search [--dry] [--ops softmax,rmsnorm_residual,layernorm]
//                      [--dtypes float32,bfloat16,float16] [--ns 256,1024,...]
//                      [--elements 67108864] [--only CANDIDATE,...] [--strategies a,b]
//                      [--no-grid] [--shard K/P] [--lock FILE] [--once]
//                      [--cases op:dtype:n:candidate,...] [--target host]
//                      [--forms FORM,...] [--emit DIR]
//                      [--half guarded|widen_native|aligned|bits|native|narrow_native]
//
// --dry compiles every candidate and runs nothing (no GPU needed). --shard K/P takes every P-th
// (pipeline, dtype) from the K-th, so that P processes compile at once; --lock FILE serializes
// their GPU timing (flock). --once runs each candidate once per N, unchecked and untimed (for
// Nsight Compute); --forms adds forms by name (rows_forms.h: Form::name, e.g.
// warp_r4_u2_o1_b1024, a bucket of 1024); --half picks float16's conversions on CUDA (storage.h:
// HalfRoute): guarded, the built variants' (both by the hardware's cvt, the rounding behind a
// select on rows that are not whole aligned vectors); widen_native (rounding through the bits
// there); aligned (both by alignment); bits or native (both sides, every row, native unguarded);
// narrow_native (rounding by the hardware on every row, unguarded); --cases runs
// just those (pipeline, dtype, N, candidate); --emit DIR writes each candidate's lowered statement
// and assembly (the PTX inside) to DIR/<op>_<dtype>_<candidate>.{stmt,s}, to read the code without
// a GPU. Built on demand: cmake --build build --target fuselab_row_search. How the GPU machine runs
// it: gpu/row_search.sh, and for the row-length buckets gpu/bucket_search.sh.
// --target host runs the shipped strategies' CPU forms through the same harness (the grid's
// forms are CUDA only), which checks the harness itself where there is no GPU.
// --strategies takes the shipped row strategies of tools/CMakeLists.txt, chunked_row among them
// (built with chunk_bytes=16384, as its variants are). Those that keep more than 48 KB of a row
// in shared memory fail to launch here: Halide's JIT never raises the limit, where fuselab's
// runtime does (device.cpp: launch_kernel).
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "Halide.h"
#include "fuselab/dtype.h"
#include "row_funcs.h"

namespace {

using namespace Halide;
using fuselab::rows::Form;
using Halide::Runtime::Buffer;

// The form the schedule "search" applies.
Form g_form;

void search_softmax(fuselab::Softmax &g, const Target &t) {
    fuselab::rows::gpu_rows(g, g_form, t);
}
void search_rmsnorm(fuselab::RmsnormResidual &g, const Target &t) {
    fuselab::rows::gpu_rows(g, g_form, t);
}
void search_layernorm(fuselab::Layernorm &g, const Target &t) {
    fuselab::rows::gpu_rows(g, g_form, t);
}
const fuselab::ScheduleRegistration<fuselab::Softmax> reg_softmax("search", search_softmax);
const fuselab::ScheduleRegistration<fuselab::RmsnormResidual> reg_rmsnorm("search", search_rmsnorm);
const fuselab::ScheduleRegistration<fuselab::Layernorm> reg_layernorm("search", search_layernorm);

std::vector<std::string> split(const std::string &s, char sep = ',') {
    std::vector<std::string> out;
    std::stringstream ss(s);
    for (std::string item; std::getline(ss, item, sep);) {
        if (!item.empty()) out.push_back(item);
    }
    return out;
}

struct Candidate {
    std::string name;      // a strategy's name, or the form's
    std::string schedule;  // the generator's schedule param
    Form form;
    int max_n = 1 << 30;  // longer rows are not tried (a warp a row past 16384 only loses)
};

// The grid: block forms over threads a row and unrolling, warp forms over rows a block and
// unrolling (rows up to 16384), and a few staged ones.
std::vector<Candidate> grid() {
    std::vector<Candidate> out;
    auto add = [&](Form::Kind kind, int size, int u, int uo, bool staged) {
        Form f;
        f.kind = kind, f.steps = u, f.out_steps = uo, f.staged = staged;
        (kind == Form::Block ? f.threads : f.rows) = size;
        out.push_back({f.name(), "search", f, kind == Form::Warp ? 16384 : 1 << 30});
    };
    for (int T : {128, 256, 512}) {
        for (auto [u, uo] : std::vector<std::pair<int, int>>{{2, 1}, {4, 2}, {8, 4}}) {
            add(Form::Block, T, u, uo, false);
        }
    }
    for (int R : {2, 4, 8}) {
        for (auto [u, uo] : std::vector<std::pair<int, int>>{{1, 1}, {2, 1}, {2, 2}, {4, 2}}) {
            add(Form::Warp, R, u, uo, false);
        }
    }
    add(Form::Block, 128, 4, 2, true);
    add(Form::Block, 256, 4, 2, true);
    add(Form::Warp, 4, 2, 1, true);
    return out;
}

// A form from its name (Form::name): block_t<T>_u<U>_o<UO> or warp_r<R>_u<U>_o<UO>, then
// optionally _staged, _b<B> and _adj (rows_forms.h: Form::adjacent_out). Throws on anything
// else.
Candidate parse_form(const std::string &name) {
    Form f;
    const std::vector<std::string> parts = split(name, '_');
    if (parts.size() < 4 || (parts[0] != "block" && parts[0] != "warp")) {
        throw std::runtime_error("not a form name: " + name);
    }
    f.kind = parts[0] == "block" ? Form::Block : Form::Warp;
    for (size_t k = 1; k < parts.size(); k++) {
        const std::string &p = parts[k];
        const int v = std::atoi(p.c_str() + 1);
        if (p == "staged")
            f.staged = true;
        else if (p == "adj")
            f.adjacent_out = true;
        else if (p[0] == 't')
            f.threads = v;
        else if (p[0] == 'r')
            f.rows = v;
        else if (p[0] == 'u')
            f.steps = v;
        else if (p[0] == 'o')
            f.out_steps = v;
        else if (p[0] == 'b')
            f.bucket = v;
        else
            throw std::runtime_error("not a form name: " + name);
    }
    if (f.name() != name)
        throw std::runtime_error("not a form name: " + name + " (" + f.name() + ")");
    return {name, "search", f, 1 << 30};
}

// ---- data and references -------------------------------------------------------------------

halide_type_t storage(const std::string &dtype) {
    if (dtype == "float32") return halide_type_t(halide_type_float, 32);
    if (dtype == "float16") return halide_type_t(halide_type_float, 16);
    return halide_type_t(halide_type_uint, 16);  // bfloat16's bits
}
uint32_t encode(float v, const std::string &dtype) {
    if (dtype == "bfloat16") return fuselab::float_to_bfloat16(v);
    if (dtype == "float16") return fuselab::float_to_float16(v);
    return fuselab::float_bits(v);
}
// Element (i, j) of a dense N x M buffer (j = 0 for a 1-D one) as float32.
float decode(const Buffer<void> &b, int i, int j, const std::string &dtype) {
    const size_t k = size_t(i) + (b.dimensions() > 1 ? size_t(j) * b.dim(1).stride() : 0);
    if (dtype == "float32") return static_cast<const float *>(b.data())[k];
    const uint16_t bits = static_cast<const uint16_t *>(b.data())[k];
    return dtype == "bfloat16" ? fuselab::bfloat16_to_float(bits) : fuselab::float16_to_float(bits);
}
float decode1(const Buffer<void> &b, int i, const std::string &dtype) {
    return decode(b, i, 0, dtype);
}

Buffer<void> make(const std::string &dtype, std::vector<int> sizes) {
    return Buffer<void>(storage(dtype), sizes);
}

void fill(Buffer<void> &b, const std::string &dtype, float lo, float hi, uint64_t seed) {
    uint64_t state = seed * 0x9e3779b97f4a7c15ull + 1;
    auto u = [&] {  // xorshift64*: uniform in [lo, hi), fast enough for 2^26 elements
        state ^= state >> 12, state ^= state << 25, state ^= state >> 27;
        return lo + (hi - lo) * float((state * 0x2545f4914f6cdd1dull) >> 40) * 0x1p-24f;
    };
    const size_t n = b.number_of_elements();
    if (dtype == "float32") {
        float *p = static_cast<float *>(b.data());
        for (size_t k = 0; k < n; k++) p[k] = u();
    } else {
        uint16_t *p = static_cast<uint16_t *>(b.data());
        for (size_t k = 0; k < n; k++) p[k] = uint16_t(encode(u(), dtype));
    }
    b.set_host_dirty();
}

struct Case {
    std::string op, dtype;
    int n = 0, m = 0;
    std::map<std::string, Buffer<void>> in;  // by input name
    std::vector<std::string> outs;           // output names, in the pipeline's order
    std::map<std::string, Buffer<void>> out;
    double min_bytes = 0;

    Case(const std::string &op_, const std::string &dtype_, int n_, int m_)
        : op(op_), dtype(dtype_), n(n_), m(m_) {
        const size_t e = storage(dtype).bytes();
        const double rows = double(n) * m * e;
        uint64_t seed = 1234567 + n;
        in["x"] = make(dtype, {n, m});
        fill(in["x"], dtype, -2.0f, 2.0f, seed++);
        if (op == "softmax") {
            outs = {"out"};
            min_bytes = 2 * rows;
        } else if (op == "rmsnorm_residual") {
            in["residual"] = make(dtype, {n, m});
            fill(in["residual"], dtype, -2.0f, 2.0f, seed++);
            in["w"] = make(dtype, {n});
            fill(in["w"], dtype, 0.5f, 1.5f, seed++);
            outs = {"out", "h"};
            min_bytes = 4 * rows + n * e;
        } else {
            in["w"] = make(dtype, {n});
            fill(in["w"], dtype, 0.5f, 1.5f, seed++);
            in["b"] = make(dtype, {n});
            fill(in["b"], dtype, -0.5f, 0.5f, seed++);
            outs = {"out"};
            min_bytes = 2 * rows + 2.0 * n * e;
        }
        for (const std::string &o : outs) out[o] = make(dtype, {n, m});
    }

    // The float64 reference of row j's outputs, from the stored inputs.
    std::map<std::string, std::vector<double>> reference(int j) const {
        std::map<std::string, std::vector<double>> r;
        std::vector<double> x(n), o(n);
        for (int i = 0; i < n; i++) x[i] = decode(in.at("x"), i, j, dtype);
        if (op == "softmax") {
            double mx = -INFINITY, s = 0;
            for (double v : x) mx = std::max(mx, v);
            for (int i = 0; i < n; i++) s += std::exp(x[i] - mx);
            for (int i = 0; i < n; i++) o[i] = std::exp(x[i] - mx) / s;
        } else if (op == "rmsnorm_residual") {
            std::vector<double> h(n);
            double ss = 0;
            for (int i = 0; i < n; i++) {
                const float hv = float(x[i]) + decode(in.at("residual"), i, j, dtype);
                h[i] = fuselab::round_to(hv, dtype);
                ss += h[i] * h[i];
            }
            const double rstd = 1.0 / std::sqrt(ss / n + 1e-6);
            for (int i = 0; i < n; i++) o[i] = h[i] * rstd * decode1(in.at("w"), i, dtype);
            r["h"] = h;
        } else {
            double s = 0, ss = 0;
            for (double v : x) s += v;
            const double mean = s / n;
            for (double v : x) ss += (v - mean) * (v - mean);
            const double rstd = 1.0 / std::sqrt(ss / n + 1e-5);
            for (int i = 0; i < n; i++) {
                o[i] = (x[i] - mean) * rstd * decode1(in.at("w"), i, dtype) +
                       decode1(in.at("b"), i, dtype);
            }
        }
        r["out"] = o;
        return r;
    }
};

// The worst norm-relative error over sampled rows (NaN: failed), h compared bit for bit.
double check(Case &c) {
    const double tol = c.dtype == "float32" ? 1e-5 : c.dtype == "bfloat16" ? 1e-2 : 2e-3;
    double worst = 0;
    std::vector<int> rows{0, c.m - 1};
    for (int k = 1; k < 10; k++) rows.push_back(int((long long)c.m * k / 10));
    for (int j : rows) {
        // Only the sampled row comes back to the host (a device crop of it).
        for (auto &kv : c.out) {
            Buffer<void> crop = kv.second.cropped(1, j, 1);
            crop.copy_to_host();
        }
        const auto ref = c.reference(j);
        for (const auto &kv : ref) {
            double num = 0, den = 0;
            for (int i = 0; i < c.n; i++) {
                const double got = decode(c.out.at(kv.first), i, j, c.dtype);
                if (kv.first == "h" && got != kv.second[i]) return NAN;
                num += (got - kv.second[i]) * (got - kv.second[i]);
                den += kv.second[i] * kv.second[i];
            }
            const double e = std::sqrt(num / std::max(den, 1e-300));
            if (!(e <= tol)) return std::isnan(e) ? NAN : e;
            worst = std::max(worst, e);
        }
    }
    return worst;
}

// ---- compiling and running -----------------------------------------------------------------

std::string g_emit;  // --emit DIR

struct Compiled {
    Callable fn;
    std::vector<std::string> inputs;  // the callable's input buffers, in order
    double compile_s = 0;
};

Compiled compile(const std::string &op, const std::string &dtype, const Candidate &cand,
                 const Target &target) {
    g_form = cand.form;
    const auto t0 = std::chrono::steady_clock::now();
    auto gen = Internal::GeneratorRegistry::create(op, GeneratorContext(target));
    gen->set_generatorparam_value("schedule", cand.schedule);
    // The chunked strategies' variants are built with chunk_bytes=16384 (their `params:` tag).
    if (cand.schedule == "chunked_row") gen->set_generatorparam_value("chunk_bytes", "16384");
    gen->set_generatorparam_value("dtype", dtype);
    Pipeline p = gen->build_pipeline();
    Compiled c;
    std::vector<Argument> args;
    for (const auto &info : gen->arginfos()) {
        if (info.dir != Internal::ArgInfoDirection::Input) continue;
        for (const Parameter &prm : gen->input_parameter(info.name)) {
            args.emplace_back(prm.name(), Argument::InputBuffer, prm.type(), prm.dimensions(),
                              ArgumentEstimates{});
            c.inputs.push_back(info.name);
        }
    }
    if (!g_emit.empty()) {
        const std::string base = g_emit + "/" + op + "_" + dtype + "_" + cand.name;
        p.compile_to_lowered_stmt(base + ".stmt", args, Text, target);
        p.compile_to_assembly(base + ".s", args, "f", target);
    }
    c.fn = p.compile_to_callable(args, target);
    // Device allocations a pipeline makes itself (the chunked form's partials) kept for the next
    // call, as fuselab's runtime keeps them (device.cpp), instead of a cuMemAlloc and a
    // synchronizing cuMemFree every call (the shared runtime that holds the switch exists once a
    // pipeline is compiled).
    Internal::JITSharedRuntime::reuse_device_allocations(true);
    c.compile_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return c;
}

int call(const Compiled &c, Case &cs) {
    JITUserContext ctx, *ctx_ptr = &ctx;
    std::vector<const void *> argv{&ctx_ptr};
    for (const std::string &name : c.inputs) argv.push_back(cs.in.at(name).raw_buffer());
    for (const std::string &name : cs.outs) argv.push_back(cs.out.at(name).raw_buffer());
    return c.fn.call_argv_fast(argv.size(), argv.data());
}

// Every element of every output set to a NaN on the device (its host copy stale), so that an
// element no kernel writes fails the check.
void poison(Case &cs, const Target &target) {
    static std::map<std::string, Callable> fills;
    auto it = fills.find(cs.dtype);
    if (it == fills.end()) {
        Var i, j, io, ii;
        Func f("poison");
        const Expr nan16 = cast(UInt(16), 0x7fff);  // a NaN in both 16-bit types
        f(i, j) = cs.dtype == "float32"   ? Expr(NAN)
                  : cs.dtype == "float16" ? reinterpret(Float(16), nan16)
                                          : nan16;
        if (target.has_gpu_feature()) f.gpu_tile(i, io, ii, 256, TailStrategy::GuardWithIf);
        it = fills.emplace(cs.dtype, f.compile_to_callable({}, target)).first;
    }
    for (auto &kv : cs.out) {
        JITUserContext ctx, *ctx_ptr = &ctx;
        const void *argv[2] = {&ctx_ptr, kv.second.raw_buffer()};
        if (it->second.call_argv_fast(2, argv) != 0) {
            std::fprintf(stderr, "row_search: poisoning failed\n");
            std::exit(1);
        }
    }
}

struct Lock {
    int fd = -1;
    explicit Lock(const std::string &path) {
        if (path.empty()) return;
        fd = open(path.c_str(), O_CREAT | O_RDWR, 0644);
        if (fd >= 0) flock(fd, LOCK_EX);
    }
    ~Lock() {
        if (fd >= 0) {
            flock(fd, LOCK_UN);
            close(fd);
        }
    }
};

// Median microseconds a call: 2 warm-up calls, then 5 batches of back-to-back calls (each at
// least ~6 ms), each ending with a device sync.
double time_us(const Compiled &c, Case &cs) {
    auto sync = [&] { cs.out.at(cs.outs[0]).device_sync(); };
    using clock = std::chrono::steady_clock;
    for (int k = 0; k < 2; k++) call(c, cs);
    sync();
    auto t0 = clock::now();
    call(c, cs);
    sync();
    const double one = std::chrono::duration<double>(clock::now() - t0).count();
    const int per_batch = std::max(1, std::min(200, int(0.006 / std::max(one, 1e-6))));
    std::vector<double> us;
    for (int b = 0; b < (one > 0.002 ? 3 : 5); b++) {
        t0 = clock::now();
        for (int k = 0; k < per_batch; k++) call(c, cs);
        sync();
        us.push_back(std::chrono::duration<double>(clock::now() - t0).count() * 1e6 / per_batch);
    }
    std::sort(us.begin(), us.end());
    return us[us.size() / 2];
}

// A device copy of the same bytes as softmax float32 at these elements: the ceiling.
void copy_ceiling(long long elements, const Target &target) {
    Var i, io, ii, it, iv;
    ImageParam in(Float(32), 1, "in");
    Func f("copy");
    f(i) = in(i);
    // 256 threads a block, 16 bytes a thread
    f.split(i, io, ii, 1024, TailStrategy::GuardWithIf)
        .split(ii, it, iv, 4)
        .vectorize(iv)
        .gpu_blocks(io)
        .gpu_threads(it);
    Callable fn = f.compile_to_callable({in}, target);
    Buffer<float> a{int(elements)}, b{int(elements)};
    a.fill(1.0f);
    a.set_host_dirty();
    JITUserContext ctx, *ctx_ptr = &ctx;
    const void *argv[3] = {&ctx_ptr, a.raw_buffer(), b.raw_buffer()};
    using clock = std::chrono::steady_clock;
    for (int k = 0; k < 3; k++) fn.call_argv_fast(3, argv);
    b.device_sync();
    std::vector<double> us;
    for (int r = 0; r < 5; r++) {
        auto t0 = clock::now();
        for (int k = 0; k < 20; k++) fn.call_argv_fast(3, argv);
        b.device_sync();
        us.push_back(std::chrono::duration<double>(clock::now() - t0).count() * 1e6 / 20);
    }
    std::sort(us.begin(), us.end());
    std::printf("copy,float32,%lld,copy,%.2f,%.4f,0,0\n", elements, us[2],
                8.0 * elements / us[2] / 1e6);
    std::fflush(stdout);
}

}  // namespace

int search(int argc, char **argv);

int main(int argc, char **argv) {
    try {
        return search(argc, argv);
    } catch (const Halide::Error &e) {
        std::fprintf(stderr, "row_search: %s\n", e.what());
        return 1;
    } catch (const std::exception &e) {
        std::fprintf(stderr, "row_search: %s\n", e.what());
        return 2;
    }
}

int search(int argc, char **argv) {
    std::vector<std::string> ops{"softmax", "rmsnorm_residual", "layernorm"};
    std::vector<std::string> dtypes{"float32", "bfloat16", "float16"};
    std::vector<int> ns{256, 1024, 4096, 16384, 65536, 262144};
    std::vector<std::string> strategies{"block_row", "warp_row", "block_row_wide"};
    std::vector<std::string> only, forms;
    long long elements = 1 << 26;
    bool dry = false, use_grid = true, once = false;
    int shard = 0, shards = 1;
    std::string lock_path, target_name = "host-cuda-cuda_capability_86";
    std::vector<std::vector<std::string>> cases;  // op, dtype, n, candidate
    for (int a = 1; a < argc; a++) {
        const std::string arg = argv[a];
        auto next = [&]() -> std::string {
            if (a + 1 >= argc) {
                std::fprintf(stderr, "row_search: %s needs a value\n", arg.c_str());
                std::exit(2);
            }
            return argv[++a];
        };
        if (arg == "--dry")
            dry = true;
        else if (arg == "--once")
            once = true;
        else if (arg == "--no-grid")
            use_grid = false;
        else if (arg == "--ops")
            ops = split(next());
        else if (arg == "--dtypes")
            dtypes = split(next());
        else if (arg == "--strategies")
            strategies = split(next());
        else if (arg == "--only")
            only = split(next());
        else if (arg == "--forms")
            forms = split(next());
        else if (arg == "--half") {
            const std::string h = next();
            if (h == "guarded")
                fuselab::gpu_half_route = fuselab::HalfRoute::Guarded;
            else if (h == "widen_native")
                fuselab::gpu_half_route = fuselab::HalfRoute::WidenNative;
            else if (h == "aligned")
                fuselab::gpu_half_route = fuselab::HalfRoute::Aligned;
            else if (h == "bits")
                fuselab::gpu_half_route = fuselab::HalfRoute::Bits;
            else if (h == "native")
                fuselab::gpu_half_route = fuselab::HalfRoute::Native;
            else if (h == "narrow_native")
                fuselab::gpu_half_route = fuselab::HalfRoute::NarrowNative;
            else {
                std::fprintf(stderr,
                             "row_search: --half %s: expected widen_native, aligned, "
                             "bits, native or narrow_native\n",
                             h.c_str());
                return 2;
            }
        } else if (arg == "--elements")
            elements = std::atoll(next().c_str());
        else if (arg == "--emit")
            g_emit = next();
        else if (arg == "--lock")
            lock_path = next();
        else if (arg == "--target")
            target_name = next();  // "host": the harness on the CPU
        else if (arg == "--cases") {
            for (const auto &c : split(next())) cases.push_back(split(c, ':'));
        } else if (arg == "--ns") {
            ns.clear();
            for (const auto &s : split(next())) ns.push_back(std::atoi(s.c_str()));
        } else if (arg == "--shard") {
            const auto kp = split(next(), '/');
            shard = std::atoi(kp.at(0).c_str()), shards = std::atoi(kp.at(1).c_str());
        } else {
            std::fprintf(stderr, "row_search: unknown argument %s\n", arg.c_str());
            return 2;
        }
    }
    setenv("HL_CUDA_JIT_MAX_REGISTERS", "128", 0);  // as fuselab's runtime, before any CUDA call
    const Target target(target_name);

    std::vector<Candidate> cands;
    for (const auto &s : strategies) cands.push_back({s, s, Form{}});
    if (use_grid) {
        for (const auto &c : grid()) cands.push_back(c);
    }
    for (const auto &f : forms) cands.push_back(parse_form(f));
    if (!only.empty()) {
        std::vector<Candidate> keep;
        for (const auto &c : cands) {
            if (std::find(only.begin(), only.end(), c.name) != only.end()) keep.push_back(c);
        }
        cands = keep;
    }

    std::printf("op,dtype,n,candidate,us,tbps,max_err,compile_s\n");
    if (shard == 0 && !dry && !once && target.has_gpu_feature()) {
        Lock lock(lock_path);
        copy_ceiling(elements, target);
    }
    // --cases: the listed (op, dtype, n, candidate), in order, each its own job.
    auto wanted = [&](const std::string &op, const std::string &dtype, int n,
                      const std::string &cand) {
        if (cases.empty()) return true;
        for (const auto &c : cases) {
            if (c.size() == 4 && c[0] == op && c[1] == dtype && std::atoi(c[2].c_str()) == n &&
                c[3] == cand) {
                return true;
            }
        }
        return false;
    };
    int job = -1;
    for (const auto &op : ops) {
        for (const auto &dtype : dtypes) {
            if (++job % shards != shard) continue;
            std::vector<std::pair<const Candidate *, Compiled>> built;
            for (const auto &cand : cands) {
                bool any = cases.empty();
                for (int n : ns) any = any || wanted(op, dtype, n, cand.name);
                if (!any) continue;
                try {
                    built.emplace_back(&cand, compile(op, dtype, cand, target));
                    if (dry) {
                        std::printf("%s,%s,0,%s,0,0,0,%.2f\n", op.c_str(), dtype.c_str(),
                                    cand.name.c_str(), built.back().second.compile_s);
                        std::fflush(stdout);
                    }
                } catch (const Halide::Error &e) {
                    std::printf("%s,%s,0,%s,-1,0,compile error,0\n", op.c_str(), dtype.c_str(),
                                cand.name.c_str());
                    std::fprintf(stderr, "%s %s %s: %s\n", op.c_str(), dtype.c_str(),
                                 cand.name.c_str(), e.what());
                }
            }
            if (dry) continue;
            // Each candidate's first call loads its module (the driver compiles the PTX): done
            // here on 4 short rows, outside the GPU lock, where it costs the timed runs nothing.
            if (!built.empty() && target.has_gpu_feature() && !once) {
                Case tiny(op, dtype, 256, 4);
                for (auto &[cand, fn] : built) {
                    try {
                        call(fn, tiny);
                    } catch (const Halide::Error &) {
                    }
                }
            }
            for (int n : ns) {
                bool any = false;
                for (auto &[cand, fn] : built) any = any || wanted(op, dtype, n, cand->name);
                if (!any) continue;
                const int m = int(std::max<long long>(elements / n, 256));
                Case cs(op, dtype, n, m);
                for (auto &[cand, fn] : built) {
                    if (!wanted(op, dtype, n, cand->name) || n > cand->max_n) continue;
                    double us = 0, err = 0;
                    {
                        Lock lock(lock_path);
                        if (!once) poison(cs, target);  // --once: the candidate's kernels alone
                        int rc = -1;
                        try {
                            rc = call(fn, cs);
                        } catch (const Halide::Error &e) {
                            std::fprintf(stderr, "%s %s %d %s: %s\n", op.c_str(), dtype.c_str(), n,
                                         cand->name.c_str(), e.what());
                        }
                        if (rc != 0) {
                            // A refusal (a staged form's rows too long) or a failure: the
                            // message went to stderr through Halide's error handler.
                            std::printf("%s,%s,%d,%s,-1,0,error %d,%.2f\n", op.c_str(),
                                        dtype.c_str(), n, cand->name.c_str(), rc, fn.compile_s);
                            std::fflush(stdout);
                            continue;
                        }
                        if (!once)
                            us = time_us(fn, cs);
                        else
                            cs.out.at(cs.outs[0]).device_sync();
                    }
                    if (!once) err = check(cs);
                    std::printf("%s,%s,%d,%s,%.2f,%.4f,%.3g,%.2f\n", op.c_str(), dtype.c_str(), n,
                                cand->name.c_str(), us, us > 0 ? cs.min_bytes / us / 1e6 : 0.0, err,
                                fn.compile_s);
                    std::fflush(stdout);
                }
            }
        }
    }
    return 0;
}
