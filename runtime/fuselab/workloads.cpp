#include "fuselab/workloads.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <sstream>

#include "fuselab/error.h"

namespace fuselab {

const std::vector<Workload> &workloads() {
    using namespace workloads_detail;
    static const std::vector<Workload> list = {
        add_relu(),         pointwise_chain(), branches(),         branches_indep(),
        conv_relu_pool(),   blur3x3(),         stencil_chain_k2(), stencil_chain_k4(),
        stencil_chain_k8(), two_convs(),       two_convs_indep(),
    };
    return list;
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

std::string format_size(const Size &s) {
    std::string out;
    for (size_t i = 0; i < s.size(); i++) out += (i ? "x" : "") + std::to_string(s[i]);
    return out;
}

Buffers make_buffers(const Workload &w, const Size &size, uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
    Buffers out;
    for (const ArgShape &a : w.shapes(size)) {
        Halide::Runtime::Buffer<float> b(a.extents);
        if (!a.output) {
            b.for_each_value([&](float &v) { v = uniform(rng); });
            b.set_host_dirty();  // so that a copy to the device carries the values
        }
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

int64_t min_bytes(const Workload &w, const Size &size) {
    int64_t bytes = 0;
    for (const ArgShape &a : w.shapes(size)) {
        int64_t n = 4;
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

double relative_error(const Halide::Runtime::Buffer<float> &out,
                      const Halide::Runtime::Buffer<double> &ref) {
    double num = 0, den = 0, n = 0;
    bool finite = true;
    ref.for_each_element([&](const int *pos) {
        const double o = out(pos), r = ref(pos);
        if (!std::isfinite(o)) finite = false;
        num += (o - r) * (o - r);
        den += r * r;
        n += 1;
    });
    if (!finite) return INFINITY;
    return std::sqrt(num / std::max(den, n));
}

Size size_from_inputs(const Workload &w, const Buffers &inputs) {
    for (const ArgShape &a : w.shapes(w.cpu_sizes.front())) {
        if (a.output) continue;
        auto it = inputs.find(a.name);
        if (it == inputs.end()) throw Error(w.pipeline + ": missing input '" + a.name + "'");
        if (it->second.dimensions() != static_cast<int>(a.extents.size())) {
            throw Error(w.pipeline + ": input '" + a.name + "' has rank " +
                        std::to_string(it->second.dimensions()) + ", expected " +
                        std::to_string(a.extents.size()));
        }
    }
    Size s = w.size_of(inputs);
    // The inputs must then have exactly the shapes that size implies.
    for (const ArgShape &a : w.shapes(s)) {
        if (a.output) continue;
        const auto &b = inputs.at(a.name);
        for (size_t d = 0; d < a.extents.size(); d++) {
            if (b.dim(d).extent() != a.extents[d]) {
                throw Error(w.pipeline + ": input '" + a.name + "' has extent " +
                            std::to_string(b.dim(d).extent()) + " in dimension " +
                            std::to_string(d) + ", expected " + std::to_string(a.extents[d]) +
                            " for size " + format_size(s));
            }
        }
    }
    return s;
}

}  // namespace fuselab
