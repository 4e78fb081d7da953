// `fuselab run`: one variant on the user's own files. Nothing is written unless every step
// succeeded, and each output file appears whole or not at all.
#include <cstdio>

#include "commands.h"
#include "fuselab/device.h"
#include "fuselab/error.h"
#include "fuselab/registry.h"
#include "fuselab/workloads.h"
#include "io.h"

namespace fuselab::cli {
namespace {

std::pair<std::string, std::string> split_binding(const std::string &text) {
    const size_t eq = text.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == text.size()) {
        throw Error("bad argument '" + text + "': expected NAME=FILE");
    }
    return {text.substr(0, eq), text.substr(eq + 1)};
}

}  // namespace

int run_command(const RunOptions &opt) {
    const Workload &w = find_workload(opt.pipeline);
    const Variant &v = find_variant(opt.pipeline, opt.schedule, resolve_target(opt.target));
    const Size any = w.cpu_sizes.front();

    Buffers buffers;
    for (const std::string &text : opt.inputs) {
        auto [name, file] = split_binding(text);
        bool is_input = false;
        for (const ArgShape &a : w.shapes(any)) is_input |= !a.output && a.name == name;
        if (!is_input) throw Error(v.name() + ": '" + name + "' is not an input of " + w.pipeline);
        try {
            buffers.emplace(name, read_array(file));
        } catch (const Error &e) {
            throw Error(v.name() + ": input '" + name + "': " + e.what());
        }
    }
    Size size;
    try {
        size = size_from_inputs(w, buffers);
    } catch (const Error &e) {
        throw Error(v.name() + ": " + e.what());
    }

    std::vector<std::pair<std::string, std::string>> outputs;
    for (const std::string &text : opt.outputs) {
        auto [name, file] = split_binding(text);
        bool is_output = false;
        for (const ArgShape &a : w.shapes(size)) is_output |= a.output && a.name == name;
        if (!is_output)
            throw Error(v.name() + ": '" + name + "' is not an output of " + w.pipeline);
        outputs.emplace_back(name, file);
    }
    for (const ArgShape &a : w.shapes(size)) {
        if (a.output) buffers.emplace(a.name, Halide::Runtime::Buffer<float>(a.extents));
    }
    poison_outputs(w, size, buffers);

    Bindings args = bind(buffers);
    invoke(v, args);
    for (auto &[name, file] : outputs) {
        auto &out = buffers.at(name);
        if (v.is_cuda()) to_host(out.raw_buffer(), v.name());
        write_array(out, file);
        std::fprintf(stderr, "wrote %s (%s, %s)\n", file.c_str(), name.c_str(), v.name().c_str());
    }
    return 0;
}

}  // namespace fuselab::cli
