// `fuselab run`: one variant on the user's own files. Every path is checked before any file is
// read or the kernel runs: inputs are readable regular files; each output can be created, is not
// a directory, a device or a pipe, is not the same file as an input (it would be lost) or as
// another output. Nothing is written unless every step succeeded, and each output file appears
// whole or not at all.
#include <sys/stat.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <set>

#include "commands.h"
#include "fuselab/device.h"
#include "fuselab/choose.h"
#include "fuselab/error.h"
#include "fuselab/registry.h"
#include "fuselab/workloads.h"
#include "fuselab/io.h"

namespace fuselab::cli {
namespace {

struct Binding {
    std::string name, file;
};

Binding split_binding(const std::string &text) {
    const size_t eq = text.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == text.size()) {
        throw Error("bad argument '" + text + "': expected NAME=FILE");
    }
    return {text.substr(0, eq), text.substr(eq + 1)};
}

// Which file a path names: its device and inode if it exists, else its directory's and its
// own name (what it will be once created). Two paths are the same file if their ids are equal.
struct FileId {
    dev_t dev = 0;
    ino_t ino = 0;
    std::string name;  // empty when the file exists
    bool operator==(const FileId &o) const {
        return dev == o.dev && ino == o.ino && name == o.name;
    }
};

bool file_id(const std::string &path, FileId *id) {
    struct stat st;
    if (stat(path.c_str(), &st) == 0) {
        *id = {st.st_dev, st.st_ino, ""};
        return true;
    }
    const size_t slash = path.rfind('/');
    const std::string dir = slash == std::string::npos ? "."
                            : slash == 0               ? "/"
                                                       : path.substr(0, slash);
    const std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
    if (name.empty() || stat(dir.c_str(), &st) != 0) return false;
    *id = {st.st_dev, st.st_ino, name};
    return true;
}

}  // namespace

int run_command(const RunOptions &opt) {
    const Workload &w = find_workload(opt.pipeline);
    const std::string target = resolve_target(opt.target);
    // Without --schedule, the strategy is chosen once the inputs are read (choose.h); without
    // --dtype, the storage type is the input files' own.
    if (!opt.dtype.empty()) dtype_type(opt.dtype);  // a known name, or Error
    const Variant *named = opt.schedule.empty() || opt.dtype.empty()
                               ? nullptr
                               : &find_variant(opt.pipeline, opt.schedule, target, opt.dtype);
    std::string who = named ? named->name() : opt.pipeline + " on " + target;
    if (!named && !opt.schedule.empty()) who = opt.pipeline + "/" + opt.schedule + "/" + target;
    const Size any = w.cpu_sizes.front();
    const auto has_arg = [&](const std::string &name, bool output) {
        for (const ArgShape &a : w.shapes(any)) {
            if (a.output == output && a.name == name) return true;
        }
        return false;
    };

    // Names first: each a known input or output, each given once.
    std::vector<Binding> inputs, outputs;
    std::set<std::string> seen;
    for (const std::string &text : opt.inputs) {
        Binding b = split_binding(text);
        if (!has_arg(b.name, false)) {
            throw Error(who + ": '" + b.name + "' is not an input of " + w.pipeline);
        }
        if (!seen.insert(b.name).second) {
            throw Error(who + ": input '" + b.name + "' is given twice");
        }
        inputs.push_back(b);
    }
    for (const std::string &text : opt.outputs) {
        Binding b = split_binding(text);
        if (!has_arg(b.name, true)) {
            throw Error(who + ": '" + b.name + "' is not an output of " + w.pipeline);
        }
        if (!seen.insert(b.name).second) {
            throw Error(who + ": output '" + b.name + "' is given twice");
        }
        outputs.push_back(b);
    }

    // Then the paths, before anything is read or run.
    std::vector<FileId> input_ids(inputs.size());
    for (size_t i = 0; i < inputs.size(); i++) {
        try {
            check_input_path(inputs[i].file);
        } catch (const Error &e) {
            throw Error(who + ": input '" + inputs[i].name + "': " + e.what());
        }
        file_id(inputs[i].file, &input_ids[i]);
    }
    std::vector<std::unique_ptr<OutputFile>> files;
    std::vector<FileId> output_ids;
    for (const Binding &out : outputs) {
        const auto fail = [&](const std::string &why) {
            throw Error(who + ": output '" + out.name + "': cannot write " + out.file + ": " +
                        why);
        };
        try {
            files.push_back(std::make_unique<OutputFile>(out.file));
        } catch (const Error &e) {
            throw Error(who + ": output '" + out.name + "': " + e.what());
        }
        FileId id;
        if (!file_id(out.file, &id)) fail(std::strerror(errno));
        for (size_t i = 0; i < inputs.size(); i++) {
            if (id == input_ids[i]) {
                fail("it is the same file as input '" + inputs[i].name + "' (" + inputs[i].file +
                     "), which writing it would destroy");
            }
        }
        for (size_t o = 0; o < output_ids.size(); o++) {
            if (id == output_ids[o]) {
                fail("it is the same file as output '" + outputs[o].name + "' (" + outputs[o].file +
                     ")");
            }
        }
        output_ids.push_back(id);
    }

    // A pipeline built in float32 alone reads float32 files alone (its files' messages as ever).
    bool typed = false;
    for (const Variant &v : variants()) typed |= opt.pipeline == v.pipeline && std::string(v.dtype) != "float32";
    Buffers buffers;
    std::string dtype = opt.dtype, first, first_file;  // the input that set the type
    for (const Binding &in : inputs) {
        std::string stored = "float32";
        try {
            buffers.emplace(in.name, read_array(in.file, typed ? &stored : nullptr));
        } catch (const Error &e) {
            throw Error(who + ": input '" + in.name + "': " + e.what());
        }
        if (dtype.empty()) dtype = stored, first = in.name, first_file = in.file;
        if (stored != dtype) {
            throw Error(who + ": input '" + in.name + "' (" + in.file + ") holds " + stored + ", but " +
                        (first.empty() ? "--dtype is "
                                       : "input '" + first + "' (" + first_file + ") holds ") + dtype +
                        ": every argument has one storage type (bfloat16 files hold its bits as '<u2')");
        }
    }
    if (dtype.empty()) dtype = "float32";
    if (!named && !opt.schedule.empty()) {
        named = &find_variant(opt.pipeline, opt.schedule, target, dtype);
        who = named->name();
    }
    // Errors past this point concern the inputs together: they name all their files.
    std::string files_given = " (inputs:";
    for (const Binding &in : inputs) files_given += " " + in.name + "=" + in.file;
    files_given += ")";
    Size size;
    try {
        size = size_from_inputs(w, buffers);
    } catch (const Error &e) {
        throw Error(who + ": " + e.what() + files_given);
    }
    for (const ArgShape &a : w.shapes(size)) {
        if (!a.output) continue;
        for (size_t d = 0; d < a.extents.size(); d++) {
            if (a.extents[d] < 1) {
                throw Error(who + ": output '" + a.name + "' has extent " +
                            std::to_string(a.extents[d]) + " in dimension " + std::to_string(d) +
                            "; extents must be positive" + files_given);
            }
        }
        for (size_t o = 0; o < outputs.size(); o++) {
            if (outputs[o].name != a.name) continue;
            try {
                check_output_shape(a.extents, outputs[o].file);
            } catch (const Error &e) {
                throw Error(who + ": output '" + a.name + "': " + e.what());
            }
        }
        try {
            buffers.emplace(a.name, allocate_array(a.extents, "output '" + a.name + "'"));
        } catch (const Error &e) {
            throw Error(who + ": " + e.what());
        }
    }
    StorageBuffers stored(w, size, buffers, dtype);
    stored.poison();

    Bindings args = stored.bind();
    const Variant *chosen = named;
    if (!chosen) {
        ChooseOptions copt;
        copt.target = target;
        const Choice c = choose(opt.pipeline, args, copt);
        chosen = c.variant;
        std::fprintf(stderr, "chose %s (%s): %s\n", chosen->name().c_str(), c.source.c_str(),
                     c.reason.c_str());
    }
    const Variant &v = *chosen;
    invoke(v, args);
    stored.fetch(v.name());
    // Every output to its temporary file first, then all renamed: a failure leaves none.
    for (size_t o = 0; o < outputs.size(); o++) {
        auto &out = buffers.at(outputs[o].name);
        try {
            files[o]->write(out, dtype);
        } catch (const Error &e) {
            throw Error(v.name() + ": output '" + outputs[o].name + "': " + e.what());
        }
    }
    for (size_t o = 0; o < outputs.size(); o++) {
        try {
            files[o]->commit();
        } catch (const Error &e) {
            for (size_t done = 0; done < o; done++) std::remove(outputs[done].file.c_str());
            throw Error(v.name() + ": output '" + outputs[o].name + "': " + e.what());
        }
    }
    for (const Binding &out : outputs) {
        std::fprintf(stderr, "wrote %s (%s, %s)\n", out.file.c_str(), out.name.c_str(),
                     v.name().c_str());
    }
    return 0;
}

}  // namespace fuselab::cli
