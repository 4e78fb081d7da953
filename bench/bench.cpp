// `fuselab bench`: for each pipeline and size, every strategy side by side on one target.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>

#include "commands.h"
#include "fuselab/device.h"
#include "fuselab/error.h"
#include "fuselab/registry.h"
#include "fuselab/timing.h"
#include "fuselab/workloads.h"

namespace fuselab::cli {
namespace {

struct Row {
    std::string pipeline, size, schedule, target, kind;
    Timing timing;
    int kernels, intermediates;
    int64_t intermediate_bytes, min_bytes;
    double flops, rel_err;  // rel_err: NaN when not checked
    bool ok;
    std::string error;
    double speedup = NAN;  // over the pipeline's unfused baseline at this size
};

bool is_baseline(const std::string &schedule) {
    return schedule == "unfused" || schedule == "root" || schedule == "separate";
}

bool wanted(const std::vector<std::string> &filter, const std::string &name) {
    return filter.empty() || std::find(filter.begin(), filter.end(), name) != filter.end();
}

std::string now_utc() {
    const std::time_t t = std::time(nullptr);
    char text[32];
    std::strftime(text, sizeof(text), "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
    return text;
}

std::string cpu_model() {
    std::ifstream in("/proc/cpuinfo");
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind("model name", 0) == 0) return line.substr(line.find(':') + 2);
    }
    return "unknown CPU";
}

Row measure(const Variant &v, const Workload &w, const Size &size, Buffers &buffers,
            const RefBuffers *ref, const BenchOptions &opt) {
    Row r{v.pipeline,
          format_size(size),
          v.schedule,
          v.target,
          v.kind,
          {},
          v.kernels,
          v.intermediates,
          intermediate_bytes_at(v, size),
          min_bytes(w, size),
          w.flops(size),
          NAN,
          true,
          "",
          NAN};
    try {
        poison_outputs(w, size, buffers);
        Bindings args = bind(buffers);
        invoke(v, args);
        if (ref) {
            double worst = 0;
            for (const auto &kv : *ref) {
                auto &out = buffers.at(kv.first);
                if (v.is_cuda()) to_host(out.raw_buffer(), v.name());
                worst = std::max(worst, relative_error(out, kv.second));
            }
            r.rel_err = worst;
            r.ok = worst <= w.tolerance;
        }
        TimingOptions topt;
        topt.budget_s = opt.budget_s;
        r.timing = time_variant(v, args, topt);
    } catch (const Error &e) {
        r.ok = false;
        r.error = e.what();
    }
    return r;
}

void print_header() {
    std::printf("\n%-16s %-15s %-13s %-6s %11s %7s %10s %9s %9s %8s  %s\n", "pipeline", "size",
                "schedule", "target", "median us", "kernels", "interm MB", "GB/s", "GFLOP/s",
                "speedup", "check");
}

void print_row(const Row &r) {
    char gflops[32] = "-", speed[32] = "-", mb[32] = "?", check[64];
    if (r.flops > 0 && r.timing.median_us > 0) {
        std::snprintf(gflops, sizeof(gflops), "%.0f", r.flops / r.timing.median_us / 1e3);
    }
    if (!std::isnan(r.speedup)) std::snprintf(speed, sizeof(speed), "%.2fx", r.speedup);
    if (r.intermediate_bytes >= 0)
        std::snprintf(mb, sizeof(mb), "%.1f", r.intermediate_bytes / 1e6);
    if (!r.error.empty()) {
        std::snprintf(check, sizeof(check), "ERROR");
    } else if (std::isnan(r.rel_err)) {
        std::snprintf(check, sizeof(check), "unchecked");
    } else {
        std::snprintf(check, sizeof(check), "%s %.1e", r.ok ? "ok" : "WRONG", r.rel_err);
    }
    const std::string kernels = r.kernels < 0 ? "?" : std::to_string(r.kernels);
    std::printf("%-16s %-15s %-13s %-6s %11.1f %7s %10s %9.0f %9s %8s  %s\n", r.pipeline.c_str(),
                r.size.c_str(), r.schedule.c_str(), r.target.c_str(), r.timing.median_us,
                kernels.c_str(), mb,
                r.timing.median_us > 0 ? r.min_bytes / r.timing.median_us / 1e3 : 0.0, gflops,
                speed, check);
    if (!r.error.empty()) std::printf("    error: %s\n", r.error.c_str());
}

nlohmann::json to_json(const Row &r) {
    nlohmann::json j = {{"workload", r.pipeline},
                        {"size", r.size},
                        {"name", r.schedule},
                        {"target", r.target},
                        {"kind", r.kind},
                        {"median_us", r.timing.median_us},
                        {"min_us", r.timing.min_us},
                        {"repeats", r.timing.repeats},
                        {"calls_per_repeat", r.timing.calls_per_repeat},
                        {"min_bytes", r.min_bytes},
                        {"ok", r.ok}};
    j["kernels"] = r.kernels >= 0 ? nlohmann::json(r.kernels) : nlohmann::json();
    j["intermediates"] = r.intermediates >= 0 ? nlohmann::json(r.intermediates) : nlohmann::json();
    j["intermediate_bytes"] =
        r.intermediate_bytes >= 0 ? nlohmann::json(r.intermediate_bytes) : nlohmann::json();
    j["flops"] = r.flops > 0 ? nlohmann::json(r.flops) : nlohmann::json();
    j["rel_err"] = std::isnan(r.rel_err) ? nlohmann::json() : nlohmann::json(r.rel_err);
    j["speedup_vs_unfused"] = std::isnan(r.speedup) ? nlohmann::json() : nlohmann::json(r.speedup);
    if (!r.error.empty()) j["error"] = r.error;
    return j;
}

}  // namespace

std::string resolve_target(const std::string &target) {
    if (target != "auto") return target;
    return cuda_status().usable ? "cuda" : "cpu";
}

int bench_command(const BenchOptions &opt) {
    const std::string target = resolve_target(opt.target);
    if (target == "cuda" && !cuda_status().usable) {
        throw Error("--target cuda: no usable CUDA device: " + cuda_status().reason);
    }
    if (!opt.size.empty() && opt.pipelines.size() != 1)
        throw Error("--size needs exactly one --pipeline");
    for (const std::string &p : opt.pipelines) find_workload(p);  // unknown names fail early

    std::fprintf(stderr, "fuselab bench on %s (%s)\n", target.c_str(),
                 target == "cuda" ? cuda_status().device.c_str() : cpu_model().c_str());
    std::vector<Row> rows;
    const auto started = std::chrono::steady_clock::now();
    for (const Workload &w : workloads()) {
        if (!wanted(opt.pipelines, w.pipeline)) continue;
        std::vector<const Variant *> vs;
        for (const Variant &v : variants()) {
            if (v.pipeline == w.pipeline && v.target == target && wanted(opt.schedules, v.schedule))
                vs.push_back(&v);
        }
        if (vs.empty()) continue;
        const std::vector<Size> sizes = opt.size.empty()
                                            ? (target == "cuda" ? w.cuda_sizes : w.cpu_sizes)
                                            : std::vector<Size>{parse_size(w, opt.size)};
        for (const Size &size : sizes) {
            std::fprintf(stderr, "  %s %s: preparing inputs%s\n", w.pipeline.c_str(),
                         format_size(size).c_str(), opt.check ? " and the float64 reference" : "");
            Buffers buffers = make_buffers(w, size, 0x5eed + rows.size());
            RefBuffers ref;
            if (opt.check) ref = w.reference(buffers, size);
            if (target == "cuda") {
                for (const ArgShape &a : w.shapes(size)) {
                    if (!a.output)
                        to_device(buffers.at(a.name).raw_buffer(), w.pipeline + " input " + a.name);
                }
            }
            const size_t first = rows.size();
            for (const Variant *v : vs) {
                std::fprintf(stderr, "  [%zu] %s %s ...\n", rows.size() + 1, v->name().c_str(),
                             format_size(size).c_str());
                rows.push_back(measure(*v, w, size, buffers, opt.check ? &ref : nullptr, opt));
            }
            double base = NAN;
            for (size_t i = first; i < rows.size(); i++) {
                if (is_baseline(rows[i].schedule) && rows[i].error.empty())
                    base = rows[i].timing.median_us;
            }
            for (size_t i = first; i < rows.size(); i++) {
                if (rows[i].error.empty()) rows[i].speedup = base / rows[i].timing.median_us;
            }
        }
    }
    const double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();

    print_header();
    std::string last;
    for (const Row &r : rows) {
        if (!last.empty() && last != r.pipeline + r.size) std::printf("\n");
        last = r.pipeline + r.size;
        print_row(r);
    }
    std::printf(
        "\n%zu variant runs in %.0f s. GB/s counts the fewest bytes a call must move; speedup is "
        "over "
        "the unfused baseline.\n",
        rows.size(), elapsed);

    if (!opt.json.empty()) {
        nlohmann::json records = nlohmann::json::array();
        for (const Row &r : rows) records.push_back(to_json(r));
        nlohmann::json doc = {{"meta",
                               {{"date", now_utc()},
                                {"target", target},
                                {"device", target == "cuda" ? cuda_status().device : cpu_model()},
                                {"cpu", cpu_model()}}},
                              {"records", records}};
        std::ofstream(opt.json) << doc.dump(2) << "\n";
        std::fprintf(stderr, "wrote %s\n", opt.json.c_str());
    }
    // A wrong answer fails the run; a variant that refuses a size (an autoscheduled schedule below
    // its tile size) is reported in its row and does not.
    bool any_wrong = false;
    for (const Row &r : rows) any_wrong |= r.error.empty() && !r.ok;
    return any_wrong ? 2 : 0;
}

}  // namespace fuselab::cli
