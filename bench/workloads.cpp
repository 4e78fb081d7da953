#include "fuselab/workloads.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <sstream>
#include <thread>

#include "fuselab/dtype.h"
#include "fuselab/error.h"
#include "fuselab/device.h"

namespace fuselab {

namespace {
std::deque<Workload> &registry() {  // constructed on first use, from any static initializer
    static std::deque<Workload> list;
    return list;
}
}  // namespace

void register_workload(const Workload &w) {
    for (const Workload &known : registry()) {
        if (known.pipeline == w.pipeline) {
            std::fprintf(stderr, "fuselab: workload %s is registered twice; keeping the first\n",
                         w.pipeline.c_str());
            return;
        }
    }
    registry().push_back(w);
}

const std::deque<Workload> &workloads() {
    return registry();
}

const Workload &find_workload(const std::string &pipeline) {
    std::string known;
    for (const Workload &w : workloads()) {
        if (w.pipeline == pipeline) return w;
        known += " " + w.pipeline;
    }
    throw Error("unknown pipeline '" + pipeline + "'; known:" + known);
}

Size parse_size(const Workload &w, const std::string &text) {
    const size_t want = std::count(w.size_format.begin(), w.size_format.end(), 'x') + 1;
    Size s;
    std::stringstream in(text);
    std::string part;
    while (std::getline(in, part, 'x')) {
        char *end = nullptr;
        const long v = std::strtol(part.c_str(), &end, 10);
        if (part.empty() || *end != '\0' || v <= 0 || v > (1L << 31) - 1) {
            throw Error(w.pipeline + ": bad size '" + text + "': expected " + w.size_format +
                        " with positive integers");
        }
        s.push_back(static_cast<int>(v));
    }
    if (s.size() != want) {
        throw Error(w.pipeline + ": bad size '" + text + "': expected " + w.size_format);
    }
    return s;
}

namespace {
// body(begin, end) over [0, n) in chunks on every core: the bench prepares 2^26-element buffers
// for each size and type, which took seconds a buffer on one core (2026-12-02, the H200's host).
template <typename Body>
void parallel_chunks(int64_t n, Body &&body) {
    const int64_t threads =
        n < (int64_t(1) << 20) ? 1 : std::max(1u, std::min(32u, std::thread::hardware_concurrency()));
    if (threads == 1) return body(int64_t(0), n);
    std::vector<std::thread> pool;
    const int64_t chunk = (n + threads - 1) / threads;
    for (int64_t b = 0; b < n; b += chunk) pool.emplace_back(body, b, std::min(n, b + chunk));
    for (std::thread &t : pool) t.join();
}

// A counter-based generator (splitmix64 of the element's index): the same values on any number
// of threads. Uniform in [-1, 1) with 24 random bits.
float uniform_at(uint64_t seed, uint64_t i) {
    uint64_t z = seed + (i + 1) * 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    return static_cast<float>(z >> 40) * 0x1p-23f - 1.0f;
}

// Whether a buffer's elements are its allocation in order (make_buffers' buffers are).
template <typename T>
bool dense(const Halide::Runtime::Buffer<T> &b) {
    int64_t stride = 1;
    for (int d = 0; d < b.dimensions(); d++) {
        if (b.dim(d).stride() != stride || b.dim(d).min() != 0) return false;
        stride *= b.dim(d).extent();
    }
    return true;
}
}  // namespace

std::string format_size(const Size &s) {
    std::string out;
    for (size_t i = 0; i < s.size(); i++) out += (i ? "x" : "") + std::to_string(s[i]);
    return out;
}

Buffers make_buffers(const Workload &w, const Size &size, uint64_t seed, const std::string &dtype) {
    dtype_type(dtype);  // a known name, or Error
    Buffers out;
    uint64_t stream = seed * 0xd1342543de82ef95ull;  // each input its own stream
    for (const ArgShape &a : w.shapes(size)) {
        Halide::Runtime::Buffer<float> b(a.extents);
        if (!a.output) {
            float *data = b.data();
            const uint64_t s = stream;
            parallel_chunks(static_cast<int64_t>(b.number_of_elements()), [&](int64_t lo, int64_t hi) {
                for (int64_t i = lo; i < hi; i++) data[i] = round_to(uniform_at(s, i), dtype);
            });
            b.set_host_dirty();  // so that a copy to the device carries the values
        }
        stream += 0x632be59bd9b4e019ull;
        out.emplace(a.name, std::move(b));
    }
    poison_outputs(w, size, out);
    return out;
}

void poison_outputs(const Workload &w, const Size &size, Buffers &buffers) {
    for (const ArgShape &a : w.shapes(size)) {
        if (!a.output) continue;
        auto &b = buffers.at(a.name);
        b.set_device_dirty(false);  // the poison replaces whatever the device holds; no copy back
        b.fill(std::numeric_limits<float>::quiet_NaN());
        b.set_host_dirty();
    }
}

Bindings bind(Buffers &buffers) {
    Bindings b;
    for (auto &kv : buffers) b[kv.first] = kv.second.raw_buffer();
    return b;
}

StorageBuffers::StorageBuffers(const Workload &w, const Size &size, Buffers &values,
                               const std::string &dtype)
    : w_(w), size_(size), values_(values), dtype_(dtype) {
    dtype_type(dtype);  // a known name, or Error
    if (dtype == "float32") return;
    const bool bf16 = dtype == "bfloat16";
    for (auto &kv : values_) {
        Halide::Runtime::Buffer<float> &v = kv.second;  // named: lambdas capture no bindings (C++17)
        std::vector<int> extents;
        for (int d = 0; d < v.dimensions(); d++) extents.push_back(v.dim(d).extent());
        Halide::Runtime::Buffer<uint16_t> b(extents);
        v.copy_to_host();
        if (dense(v)) {
            const float *from = v.data();
            uint16_t *to = b.data();
            parallel_chunks(static_cast<int64_t>(v.number_of_elements()), [&](int64_t lo, int64_t hi) {
                for (int64_t i = lo; i < hi; i++)
                    to[i] = bf16 ? float_to_bfloat16(from[i]) : float_to_float16(from[i]);
            });
        } else {
            b.for_each_element([&](const int *pos) {
                b(pos) = bf16 ? float_to_bfloat16(v(pos)) : float_to_float16(v(pos));
            });
        }
        b.set_host_dirty();
        narrow_.emplace(kv.first, std::move(b));
    }
}

halide_buffer_t *StorageBuffers::raw(const std::string &name) {
    if (dtype_ == "float32") return values_.at(name).raw_buffer();
    // Held as uint16 bits; a float16 variant takes the same bits typed float16.
    halide_buffer_t *b = narrow_.at(name).raw_buffer();
    b->type = dtype_type(dtype_);
    return b;
}

Bindings StorageBuffers::bind() {
    Bindings b;
    for (auto &kv : values_) b[kv.first] = raw(kv.first);
    return b;
}

void StorageBuffers::poison() {
    poison_outputs(w_, size_, values_);
    if (dtype_ == "float32") return;
    const uint16_t nan = dtype_ == "bfloat16" ? 0x7fc0 : 0x7e00;
    for (const ArgShape &a : w_.shapes(size_)) {
        if (!a.output) continue;
        auto &b = narrow_.at(a.name);
        b.set_device_dirty(false);
        b.fill(nan);
        b.set_host_dirty();
    }
}

void StorageBuffers::fetch(const std::string &who) {
    const bool bf16 = dtype_ == "bfloat16";
    for (const ArgShape &a : w_.shapes(size_)) {
        if (!a.output) continue;
        to_host(raw(a.name), who);
        if (dtype_ == "float32") continue;
        auto &b = narrow_.at(a.name);
        auto &v = values_.at(a.name);
        v.set_device_dirty(false);
        if (dense(v)) {
            const uint16_t *from = b.data();
            float *to = v.data();
            parallel_chunks(static_cast<int64_t>(v.number_of_elements()), [&](int64_t lo, int64_t hi) {
                for (int64_t i = lo; i < hi; i++)
                    to[i] = bf16 ? bfloat16_to_float(from[i]) : float16_to_float(from[i]);
            });
            continue;
        }
        v.for_each_element([&](const int *pos) {
            v(pos) = bf16 ? bfloat16_to_float(b(pos)) : float16_to_float(b(pos));
        });
    }
}

int64_t min_bytes(const Workload &w, const Size &size, const std::string &dtype) {
    int64_t bytes = 0;
    const int64_t elem = dtype_type(dtype).bytes();
    for (const ArgShape &a : w.shapes(size)) {
        int64_t n = elem;
        for (int e : a.extents) n *= e;
        bytes += n;
    }
    return bytes;
}

int64_t intermediate_bytes_at(const Variant &v, const Size &size) {
    if (!v.intermediate_bytes_fn) return -1;
    // Shape-only buffers: the ledger reads nothing but dimensions.
    const std::vector<ArgShape> shapes = find_workload(v.pipeline).shapes(size);
    std::vector<std::vector<halide_dimension_t>> dims(shapes.size());
    std::vector<halide_buffer_t> bufs(shapes.size());
    Bindings args;
    for (size_t i = 0; i < shapes.size(); i++) {
        int32_t stride = 1;
        for (int e : shapes[i].extents) {
            dims[i].push_back(halide_dimension_t(0, e, stride));
            stride *= e;
        }
        bufs[i].type = halide_type_of<float>();
        bufs[i].dimensions = static_cast<int>(dims[i].size());
        bufs[i].dim = dims[i].data();
        args[shapes[i].name] = &bufs[i];
    }
    return intermediate_bytes(v, args);
}

namespace {
// Both the same infinity, or both NaN: the math's own answer, where the reference is not finite.
bool same_non_finite(double o, double r) {
    return (std::isnan(o) && std::isnan(r)) || (std::isinf(o) && o == r);
}
}  // namespace

double relative_error(const Halide::Runtime::Buffer<float> &out,
                      const Halide::Runtime::Buffer<double> &ref) {
    double num = 0, den = 0, n = 0;
    bool finite = true;
    ref.for_each_element([&](const int *pos) {
        const double o = out(pos), r = ref(pos);
        if (!std::isfinite(r)) {
            finite &= same_non_finite(o, r);
            return;
        }
        if (!std::isfinite(o)) finite = false;
        num += (o - r) * (o - r);
        den += r * r;
        n += 1;
    });
    if (!finite) return INFINITY;
    return n == 0 ? 0 : std::sqrt(num / std::max(den, n));
}

double tolerance_of(const Workload &w, const std::string &dtype) {
    return w.tolerance_in ? w.tolerance_in(dtype) : w.tolerance;
}

ElementTolerance element_tolerance_of(const Workload &w, const Size &size,
                                      const std::string &dtype, const std::string &output) {
    if (w.element_tolerance_in) return w.element_tolerance_in(size, dtype, output);
    return w.element_tolerance ? w.element_tolerance(size) : ElementTolerance{w.tolerance, w.tolerance};
}

RefBuffers reference_of(const Workload &w, const Buffers &inputs, const Size &size,
                        const std::string &dtype) {
    return w.reference_in ? w.reference_in(inputs, size, dtype) : w.reference(inputs, size);
}

OutputCheck check_output(const Workload &w, const Size &size,
                         const Halide::Runtime::Buffer<float> &out,
                         const Halide::Runtime::Buffer<double> &ref, const std::string &dtype,
                         const std::string &output) {
    const ElementTolerance t = element_tolerance_of(w, size, dtype, output);
    OutputCheck c;
    c.rel_err = relative_error(out, ref);
    double worst_excess = -1;  // how far past its bound, in units of the bound
    ref.for_each_element([&](const int *pos) {
        const double o = out(pos), r = ref(pos);
        const double bound = t.atol + t.rtol * std::fabs(r);
        const double d = std::fabs(o - r);
        if (same_non_finite(o, r) || d <= bound) return;  // NaN and inf fail the comparison
        c.bad_elements++;
        const double excess = std::isfinite(d) ? d / bound : INFINITY;
        if (excess > worst_excess || c.worst.empty()) {
            worst_excess = excess;
            std::string at;
            for (int i = 0; i < ref.dimensions(); i++) at += (i ? "," : "") + std::to_string(pos[i]);
            char text[160];
            std::snprintf(text, sizeof(text), "(%s) is %.9g, expected %.9g (|diff| %.3g > %.3g)",
                          at.c_str(), o, r, d, bound);
            c.worst = text;
        }
    });
    c.ok = c.rel_err <= tolerance_of(w, dtype) && c.bad_elements == 0;
    return c;
}

Size size_from_inputs(const Workload &w, const Shapes &inputs) {
    for (const ArgShape &a : w.shapes(w.cpu_sizes.front())) {
        if (a.output) continue;
        auto it = inputs.find(a.name);
        if (it == inputs.end()) throw Error(w.pipeline + ": missing input '" + a.name + "'");
        if (it->second.size() != a.extents.size()) {
            throw Error(w.pipeline + ": input '" + a.name + "' has rank " +
                        std::to_string(it->second.size()) + ", expected " +
                        std::to_string(a.extents.size()));
        }
        for (size_t d = 0; d < it->second.size(); d++) {
            if (it->second[d] <= 0) {
                throw Error(w.pipeline + ": input '" + a.name + "' has extent " +
                            std::to_string(it->second[d]) + " in dimension " + std::to_string(d) +
                            "; extents must be positive");
            }
        }
    }
    const Size s = w.size_of(inputs);
    for (const ArgShape &a : w.shapes(s)) {
        for (size_t d = 0; d < a.extents.size(); d++) {
            if (a.extents[d] <= 0) {
                throw Error(w.pipeline + ": these inputs imply size " + format_size(s) +
                            ", which gives " + (a.output ? "output" : "input") + " '" + a.name +
                            "' an empty extent in dimension " + std::to_string(d));
            }
            // The inputs must have exactly the shapes that size implies.
            const std::vector<int> *given = a.output ? nullptr : &inputs.at(a.name);
            if (given && (*given)[d] != a.extents[d]) {
                throw Error(w.pipeline + ": input '" + a.name + "' has extent " +
                            std::to_string((*given)[d]) + " in dimension " + std::to_string(d) +
                            ", expected " + std::to_string(a.extents[d]) + " for size " +
                            format_size(s));
            }
        }
    }
    return s;
}

Size size_from_inputs(const Workload &w, const Buffers &inputs) {
    Shapes shapes;
    for (const auto &[name, b] : inputs) {
        std::vector<int> &e = shapes[name];
        for (int d = 0; d < b.dimensions(); d++) e.push_back(b.dim(d).extent());
    }
    return size_from_inputs(w, shapes);
}

Shapes output_shapes(const Workload &w, const Size &size) {
    Shapes out;
    for (const ArgShape &a : w.shapes(size)) {
        if (a.output) out[a.name] = a.extents;
    }
    return out;
}

}  // namespace fuselab
