#include "peer_runner.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "fuselab/error.h"
#include "fuselab/io.h"

namespace fuselab {
namespace {

std::string quoted(const std::string &s) {
    std::string q = "'";
    for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}

// A temporary folder, removed with everything in it.
struct TempDir {
    std::filesystem::path path;
    TempDir() {
        std::string tmpl = (std::filesystem::temp_directory_path() / "fuselab-peers-XXXXXX").string();
        if (!mkdtemp(tmpl.data())) throw Error("peers: cannot make a temporary folder");
        path = tmpl;
    }
    ~TempDir() {
        std::error_code ec;
        std::filesystem::remove_all(path, ec);
    }
};

}  // namespace

std::vector<PeerResult> run_cpu_peers(const std::string &command, const Workload &w,
                                      const Size &size, const std::string &dtype,
                                      const Buffers &inputs, double budget_s) {
    TempDir dir;
    for (const ArgShape &a : w.shapes(size)) {
        if (!a.output) write_array(inputs.at(a.name), (dir.path / (a.name + ".npy")).string(), dtype);
    }
    const std::string cmd = command + " --dir " + quoted(dir.path.string()) + " --workload " +
                            quoted(w.pipeline) + " --size " + format_size(size) + " --dtype " +
                            dtype + " --budget " + std::to_string(budget_s);
    FILE *p = popen(cmd.c_str(), "r");
    if (!p) throw Error("peers: cannot run " + cmd);
    std::string out;
    char chunk[4096];
    for (size_t n; (n = std::fread(chunk, 1, sizeof(chunk), p)) > 0;) out.append(chunk, n);
    const int status = pclose(p);
    if (status != 0) {
        throw Error("peers: `" + cmd + "` failed (exit status " +
                    std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1) + ")");
    }
    std::vector<PeerResult> results;
    size_t start = 0;
    while (start < out.size()) {
        size_t end = out.find('\n', start);
        if (end == std::string::npos) end = out.size();
        const std::string line = out.substr(start, end - start);
        start = end + 1;
        if (line.empty() || line[0] != '{') continue;
        const nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
        if (j.is_discarded() || !j.contains("name")) continue;
        PeerResult r;
        r.name = j["name"];
        r.note = j.value("note", "");
        if (j.contains("error")) {
            r.error = j["error"];
            r.refused = j.value("refused", false);
            results.push_back(std::move(r));
            continue;
        }
        r.median_us = j.value("median_us", 0.0);
        r.min_us = j.value("min_us", 0.0);
        r.repeats = j.value("repeats", 0);
        r.calls_per_repeat = j.value("calls_per_repeat", 0);
        r.threads = j.value("threads", 0);
        try {
            for (const ArgShape &a : w.shapes(size)) {
                if (!a.output) continue;
                std::string stored;
                r.outputs.emplace(
                    a.name, read_array((dir.path / (r.name + "." + a.name + ".npy")).string(), &stored));
                if (stored != dtype)
                    throw Error(a.name + " is " + stored + ", expected " + dtype);
            }
        } catch (const Error &e) {
            r.error = std::string("its output: ") + e.what();
        }
        results.push_back(std::move(r));
    }
    return results;
}

}  // namespace fuselab
