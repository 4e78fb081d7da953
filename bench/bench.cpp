// The bench table (fuselab/bench.h): for each pipeline and size, every strategy side by side on
// one target.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "cpu_probe.h"
#include "cupti.h"
#include "fuselab/bench.h"
#include "fuselab/choice.h"
#include "peer_runner.h"
#include "fuselab/device.h"
#include "fuselab/error.h"
#include "fuselab/registry.h"
#include "fuselab/timing.h"
#include "fuselab/workloads.h"

namespace fuselab {
namespace {

constexpr int kTracedCalls = 5;  // calls traced with CUPTI per variant and size

struct Row {
    std::string pipeline, size, schedule, target, kind, dtype = "float32";
    Timing timing;  // host_repeats == 0: not timed (--once, or an error)
    int kernels = -1, intermediates = -1;
    int64_t intermediate_bytes = -1, min_bytes = 0;
    double flops = 0, rel_err = NAN;  // rel_err: NaN when not checked
    bool ok = true;
    std::string error;
    bool refused = false;  // error is a documented limit's worded refusal (Refusal), not a failure
    std::string worst;     // the element furthest outside its bound, when wrong
    double speedup = NAN;  // over the pipeline's unfused baseline at this size
    // --cupti: kernels and kernel-only time of each traced call, or why tracing failed.
    std::vector<CallTrace> traced;
    std::string trace_error;
    // CPU peers (kind "peer"): their thread count and what they said of themselves.
    int threads = 0;
    std::string note;
    double floor_us = NAN;  // min_bytes at the copy bandwidth of this run (CPU runs)

    bool launches_vary() const {
        for (const CallTrace &t : traced) {
            if (t.kernels != traced.front().kernels) return true;
        }
        return false;
    }
    // Kernels per call, when every traced call launched the same number (else -1).
    int launches() const { return traced.empty() || launches_vary() ? -1 : traced[0].kernels; }
    double kernel_us() const {  // median over the traced calls
        if (traced.empty()) return NAN;
        std::vector<double> us;
        for (const CallTrace &t : traced) us.push_back(t.kernel_us);
        std::sort(us.begin(), us.end());
        return us[us.size() / 2];
    }
    // The measured count disagrees with the build-time ledger (which may not know: -1).
    bool mismatch() const {
        return !traced.empty() && kernels >= 0 && (launches_vary() || launches() != kernels);
    }
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
    return device_name("cpu");  // choose.h: the name its records and fits are keyed by
}

// Every output of a row against the reference: the norm and every element (check_output).
template <typename Out>
void check(Row &r, const Workload &w, const Size &size, const RefBuffers &ref, Out &&output) {
    const std::string dtype = r.dtype;
    r.rel_err = 0;
    r.ok = true;
    for (const auto &[name, expected] : ref) {
        const Halide::Runtime::Buffer<float> &out = output(name);
        bool same = out.dimensions() == expected.dimensions();
        for (int d = 0; same && d < out.dimensions(); d++)
            same = out.dim(d).extent() == expected.dim(d).extent();
        if (!same) {
            r.rel_err = INFINITY;
            r.ok = false;
            r.worst = name + ": shape differs from the reference's";
            continue;
        }
        const OutputCheck c = check_output(w, size, out, expected, dtype, name);
        r.rel_err = std::max(r.rel_err, c.rel_err);
        if (!c.ok) {
            r.ok = false;
            if (r.worst.empty()) {
                r.worst = name + (c.bad_elements ? " " + std::to_string(c.bad_elements) +
                                                       " elements out of bounds, worst " + c.worst
                                                 : std::string(" norm over its tolerance"));
            }
        }
    }
}

// An opt-in test fixture (FUSELAB_TEST_PLANT=bench_error:PIPELINE/SCHEDULE/TARGET): that
// variant's row fails as a launch failure would, to prove that such a row fails the run.
void planted_error(const Variant &v) {
    const char *plant = std::getenv("FUSELAB_TEST_PLANT");
    if (plant && std::string(plant) == "bench_error:" + v.name())
        throw Error(v.name() + ": planted error (FUSELAB_TEST_PLANT)");
}

Row measure(const Variant &v, const Workload &w, const Size &size, StorageBuffers &buffers,
            Buffers &values, const RefBuffers *ref, const BenchOptions &opt) {
    Row r;
    r.pipeline = v.pipeline;
    r.size = format_size(size);
    r.schedule = v.schedule;
    r.target = v.target;
    r.kind = v.kind;
    r.dtype = v.dtype;
    r.kernels = v.kernels;
    r.intermediates = v.intermediates;
    r.intermediate_bytes = intermediate_bytes_at(v, size);
    r.min_bytes = min_bytes(w, size, v.dtype);
    r.flops = w.flops(size);
    try {
        buffers.poison();
        Bindings args = buffers.bind();
        planted_error(v);
        invoke(v, args);
        if (!ref) {
            sync_outputs(v, args);  // errors surface here; a --once call has ended here
        } else {
            buffers.fetch(v.name());
            check(r, w, size, *ref, [&](const std::string &name) -> Halide::Runtime::Buffer<float> & {
                return values.at(name);
            });
        }
        if (opt.once) return r;
        TimingOptions topt;
        topt.budget_s = opt.budget_s;
        topt.device_budget_s = opt.device_budget_s;
        r.timing = time_variant(v, args, topt);
    } catch (const Refusal &e) {
        r.ok = false;
        r.refused = true;
        r.error = e.what();
    } catch (const Error &e) {
        r.ok = false;
        r.error = e.what();
    }
    return r;
}

// The CPU peers on the same inputs, each output checked against the same reference: one row each.
void add_peer_rows(std::vector<Row> &rows, const Workload &w, const Size &size,
                   const std::string &dtype, const Buffers &buffers, const RefBuffers *ref,
                   const BenchOptions &opt) {
    auto base = [&](const std::string &name) {
        Row r;
        r.pipeline = w.pipeline;
        r.size = format_size(size);
        r.schedule = name;
        r.target = "cpu";
        r.kind = "peer";
        r.dtype = dtype;
        r.min_bytes = min_bytes(w, size, dtype);
        r.flops = w.flops(size);
        return r;
    };
    std::vector<PeerResult> peers;
    try {
        std::fprintf(stderr, "  %s %s: CPU peers\n", w.pipeline.c_str(), format_size(size).c_str());
        peers = run_cpu_peers(opt.peers, w, size, dtype, buffers, opt.budget_s);
    } catch (const Error &e) {
        Row r = base("peers");
        r.ok = false;
        r.error = e.what();
        rows.push_back(r);
        return;
    }
    for (PeerResult &p : peers) {
        Row r = base(p.name);
        r.threads = p.threads;
        r.note = p.note;
        if (!p.error.empty()) {
            r.ok = false;
            r.refused = p.refused;  // a peer that does not implement this type or size
            r.error = p.name + ": " + p.error;
            rows.push_back(r);
            continue;
        }
        r.timing.host_median_us = p.median_us;
        r.timing.host_min_us = p.min_us;
        r.timing.host_repeats = p.repeats;
        r.timing.calls_per_batch = p.calls_per_repeat;
        if (ref) {
            check(r, w, size, *ref, [&](const std::string &name) -> Halide::Runtime::Buffer<float> & {
                return p.outputs.at(name);
            });
        }
        rows.push_back(r);
    }
}

// A few more calls under CUPTI, after the timed ones: tracing never overlaps timing (though the
// library, once loaded, stays; gpu/gpu_run.sh times in a process without --cupti).
void trace(Row &r, const Variant &v, StorageBuffers &buffers, CuptiTracer &tracer) {
    if (!r.error.empty()) return;
    try {
        Bindings args = buffers.bind();
        r.traced = tracer.trace(
            [&] {
                invoke(v, args);
                sync_outputs(v, args);
            },
            kTracedCalls);
    } catch (const Error &e) {
        r.trace_error = e.what();
    }
}

void print_header(bool cupti) {
    std::printf("\n%-16s %-15s %-20s %-6s %-8s %-7s %10s %10s %7s", "pipeline", "size", "schedule",
                "target", "dtype", "kind", "us", "host us", "kernels");
    if (cupti) std::printf(" %8s %10s", "launches", "kernel us");
    std::printf(" %10s %9s %9s %8s %7s  %s\n", "interm MB", "GB/s", "GFLOP/s", "speedup", "floor",
                "check");
}

void print_row(const Row &r, bool cupti) {
    char median[32] = "-", host[32] = "-", gbps[32] = "-", gflops[32] = "-", speed[32] = "-",
         mb[32] = "?", check[64];
    const double us = r.timing.median_us();
    if (us > 0) {
        std::snprintf(median, sizeof(median), "%.1f", us);
        std::snprintf(gbps, sizeof(gbps), "%.0f", r.min_bytes / us / 1e3);
    }
    if (r.timing.host_median_us > 0)
        std::snprintf(host, sizeof(host), "%.1f", r.timing.host_median_us);
    if (r.flops > 0 && us > 0) std::snprintf(gflops, sizeof(gflops), "%.0f", r.flops / us / 1e3);
    if (!std::isnan(r.speedup)) std::snprintf(speed, sizeof(speed), "%.2fx", r.speedup);
    if (r.intermediate_bytes >= 0)
        std::snprintf(mb, sizeof(mb), "%.1f", r.intermediate_bytes / 1e6);
    if (r.refused) {
        std::snprintf(check, sizeof(check), "REFUSED");
    } else if (!r.error.empty()) {
        std::snprintf(check, sizeof(check), "ERROR");
    } else if (std::isnan(r.rel_err)) {
        std::snprintf(check, sizeof(check), "unchecked");
    } else {
        std::snprintf(check, sizeof(check), "%s %.1e", r.ok ? "ok" : "WRONG", r.rel_err);
    }
    const std::string kernels = r.kernels < 0 ? "?" : std::to_string(r.kernels);
    const std::string kind = r.kind == "fuselab" ? "fuselab" : r.kind == "peer" ? "peer" : "hand";
    std::printf("%-16s %-15s %-20s %-6s %-8s %-7s %10s %10s %7s", r.pipeline.c_str(), r.size.c_str(),
                r.schedule.c_str(), r.target.c_str(), r.dtype.c_str(), kind.c_str(), median, host,
                kernels.c_str());
    if (cupti) {
        std::string launches = "-", kernel_us = "-";
        if (!r.trace_error.empty()) {
            launches = "ERROR";
        } else if (!r.traced.empty()) {
            launches = std::to_string(r.launches());
            if (r.launches_vary()) {  // "2..3": the calls disagree
                auto [lo, hi] = std::minmax_element(
                    r.traced.begin(), r.traced.end(),
                    [](const CallTrace &a, const CallTrace &b) { return a.kernels < b.kernels; });
                launches = std::to_string(lo->kernels) + ".." + std::to_string(hi->kernels);
            }
            char us[32];
            std::snprintf(us, sizeof(us), "%.1f", r.kernel_us());
            kernel_us = us;
        }
        std::printf(" %8s %10s", launches.c_str(), kernel_us.c_str());
    }
    char floor[32] = "-";  // time over the copy floor of this run
    if (us > 0 && !std::isnan(r.floor_us)) std::snprintf(floor, sizeof(floor), "%.2fx", us / r.floor_us);
    std::printf(" %10s %9s %9s %8s %7s  %s%s\n", mb, gbps, gflops, speed, floor, check,
                r.mismatch() ? "  MISMATCH" : "");
    if (!r.error.empty()) std::printf("    %s: %s\n", r.refused ? "refused" : "error", r.error.c_str());
    if (!r.worst.empty()) std::printf("    wrong: %s\n", r.worst.c_str());
    if (!r.trace_error.empty()) std::printf("    error (cupti): %s\n", r.trace_error.c_str());
}

// The copy bandwidth, with every method's median in `methods`, so that the report can set a
// kernel with plain stores beside the plain-store copy.
double copy_probe(nlohmann::json &methods) {
    std::vector<CopyMethod> all;
    const double best = copy_bandwidth_gbs(size_t(1) << 26, 0, &all);
    methods = nlohmann::json::object();
    for (const CopyMethod &c : all) methods[c.name] = c.median_gbs;
    return best;
}

nlohmann::json or_null(double x) {
    return std::isnan(x) ? nlohmann::json() : nlohmann::json(x);
}

// median_us, min_us, repeats and calls_per_repeat are of one measure, the one comparable with
// the peers' do_bench, which `timing` names: "events" (CUDA: device events around each call
// after an L2 flush, one call a repeat) or "host" (CPU: host wall clock per call over
// back-to-back batches). host_* are that host measure, for every row.
nlohmann::json to_json(const Row &r) {
    const Timing &t = r.timing;
    const bool timed = t.host_repeats > 0;
    const bool events = t.has_device();
    nlohmann::json j = {{"workload", r.pipeline},
                        {"size", r.size},
                        {"name", r.schedule},
                        {"target", r.target},
                        {"kind", r.kind},
                        {"dtype", r.dtype},
                        {"median_us", or_null(timed ? t.median_us() : NAN)},
                        {"min_us", or_null(timed ? t.min_us() : NAN)},
                        {"repeats", events ? t.device_repeats : t.host_repeats},
                        {"calls_per_repeat", events ? 1 : t.calls_per_batch},
                        {"timing", timed ? nlohmann::json(t.method()) : nlohmann::json()},
                        {"host_us", or_null(timed ? t.host_median_us : NAN)},
                        {"host_min_us", or_null(timed ? t.host_min_us : NAN)},
                        {"host_repeats", t.host_repeats},
                        {"host_calls_per_repeat", t.calls_per_batch},
                        {"min_bytes", r.min_bytes},
                        {"ok", r.ok}};
    j["kernels"] = r.kernels >= 0 ? nlohmann::json(r.kernels) : nlohmann::json();
    j["intermediates"] = r.intermediates >= 0 ? nlohmann::json(r.intermediates) : nlohmann::json();
    j["intermediate_bytes"] =
        r.intermediate_bytes >= 0 ? nlohmann::json(r.intermediate_bytes) : nlohmann::json();
    j["flops"] = r.flops > 0 ? nlohmann::json(r.flops) : nlohmann::json();
    j["rel_err"] = or_null(r.rel_err);
    j["speedup_vs_unfused"] = or_null(r.speedup);
    j["floor_us"] = or_null(r.floor_us);
    if (r.kind == "peer") {
        j["threads"] = r.threads;
        j["note"] = r.note;
    }
    if (!r.error.empty()) {
        j["error"] = r.error;
        j["error_kind"] = r.refused ? "refusal" : "error";  // refusal: a documented limit
    }
    if (!r.worst.empty()) j["worst_element"] = r.worst;
    if (!r.traced.empty()) {
        nlohmann::json per_call = nlohmann::json::array();
        for (const CallTrace &t : r.traced) per_call.push_back(t.kernels);
        j["launches_measured"] =
            r.launches() >= 0 ? nlohmann::json(r.launches()) : nlohmann::json();
        j["launches_per_call"] = per_call;
        j["kernel_us"] = or_null(r.kernel_us());
        j["launch_mismatch"] = r.mismatch();
    }
    if (!r.trace_error.empty()) j["cupti_error"] = r.trace_error;
    return j;
}

}  // namespace

std::string resolve_target(const std::string &target) {
    if (target != "auto") return target;
    return cuda_status().usable ? "cuda" : "cpu";
}

int run_bench(const BenchOptions &opt) {
    const std::string target = resolve_target(opt.target);
    if (target == "cuda" && !cuda_status().usable) {
        throw Error("--target cuda: no usable CUDA device: " + cuda_status().reason);
    }
    for (const std::string &p : opt.pipelines) find_workload(p);  // unknown names fail early
    if (!opt.sizes.empty()) {  // sizes every chosen pipeline can take (parse_size names the fault)
        if (opt.pipelines.empty())
            throw Error("--size needs --pipeline: the pipelines' sizes have different formats");
        for (const std::string &p : opt.pipelines) {
            for (const std::string &s : opt.sizes) parse_size(find_workload(p), s);
        }
    }
    // CUPTI sees CUDA kernels only; a run that cannot deliver what --cupti asks for stops here,
    // before minutes of benchmarking.
    if (opt.cupti && target != "cuda") {
        throw Error(
            "--cupti measures CUDA kernel launches, and this run's target is " + target +
            (opt.target == "auto" ? " (no usable CUDA device: " + cuda_status().reason + ")" : "") +
            "; drop --cupti, or use --target cuda on a GPU machine");
    }
    std::unique_ptr<CuptiTracer> tracer;
    if (opt.cupti) tracer = std::make_unique<CuptiTracer>();

    std::fprintf(stderr, "fuselab bench on %s (%s)%s\n", target.c_str(),
                 target == "cuda" ? cuda_status().device.c_str() : cpu_model().c_str(),
                 opt.once ? ", one call per variant and size" : "");
    if (tracer) std::fprintf(stderr, "CUPTI: %s\n", tracer->description().c_str());
    std::vector<Row> rows;
    // CPU runs: the copy bandwidth (the floor's denominator) probed beside every workload, as
    // this kind of machine's bandwidth moves by 2x within minutes; and the FMA peak.
    const bool probes = target == "cpu" && !opt.once;
    nlohmann::json copy_probes = nlohmann::json::object();
    const double fma_peak = probes ? fma_peak_gflops() : 0;
    const auto started = std::chrono::steady_clock::now();
    // How the cost model chooses at each (workload, size), fitted without that size's rows.
    std::vector<ChoiceRow> choice;
    CostModel model;
    // The JSON, rewritten after every size, so that a run cut short keeps what it measured.
    auto write_json = [&](bool partial) {
        if (opt.json.empty()) return;
        nlohmann::json records = nlohmann::json::array();
        for (const Row &r : rows) records.push_back(to_json(r));
        nlohmann::json meta = {{"date", now_utc()},
                               {"target", target},
                               {"device", target == "cuda" ? cuda_status().device : cpu_model()},
                               {"cpu", cpu_model()}};
        if (opt.once) meta["once"] = true;
        if (partial) meta["partial"] = true;
        if (probes) {
            meta["fma_peak_gflops"] = fma_peak;
            meta["copy_probes"] = copy_probes;
            meta["probe_isa"] = probe_isa();
            meta["floor"] =
                "min_bytes at the faster copy-bandwidth probe beside each workload (bench/cpu_probe.h: "
                "the best of memcpy, vector stores and non-temporal stores)";
            if (!opt.peers.empty()) meta["peers"] = opt.peers;
        }
        if (tracer) meta["cupti"] = {{"library", tracer->description()}, {"calls", kTracedCalls}};
        nlohmann::json doc = {{"meta", meta}, {"records", records}};
        if (!partial && !opt.once) {
            nlohmann::json table = nlohmann::json::array();
            for (const ChoiceRow &c : choice) {
                table.push_back({{"workload", c.workload}, {"size", c.size}, {"dtype", c.dtype},
                                 {"predicted", c.predicted}, {"source", c.source},
                                 {"measured", c.measured}, {"predicted_us", c.predicted_us},
                                 {"measured_us", c.measured_us}, {"regret", c.regret}});
            }
            doc["choice"] = table;
            doc["model"] = nlohmann::json::parse(model.to_json());
        }
        std::ofstream(opt.json) << doc.dump(2) << "\n";
        if (!partial) std::fprintf(stderr, "wrote %s\n", opt.json.c_str());
    };
    for (const Workload &w : workloads()) {
        if (!wanted(opt.pipelines, w.pipeline)) continue;
        std::vector<const Variant *> vs;
        for (const Variant &v : variants()) {
            if (v.pipeline == w.pipeline && v.target == target && wanted(opt.schedules, v.schedule) &&
                wanted(opt.dtypes, v.dtype))
                vs.push_back(&v);
        }
        if (vs.empty()) continue;
        std::vector<Size> sizes = target == "cuda" ? w.cuda_sizes : w.cpu_sizes;
        if (!opt.sizes.empty()) {
            sizes.clear();
            for (const std::string &s : opt.sizes) sizes.push_back(parse_size(w, s));
        }
        const size_t workload_first = rows.size();
        nlohmann::json probe_before, probe_after;
        const double bw_before = probes ? copy_probe(probe_before) : 0;
        std::vector<std::string> dtypes;  // the storage types built, in registration order
        for (const Variant *v : vs) {
            if (std::find(dtypes.begin(), dtypes.end(), v->dtype) == dtypes.end())
                dtypes.push_back(v->dtype);
        }
        for (const Size &size : sizes) {
          for (const std::string &dtype : dtypes) {
            const std::string label = format_size(size) + (dtype == "float32" ? "" : " " + dtype);
            std::fprintf(stderr, "  %s %s: preparing inputs%s\n", w.pipeline.c_str(), label.c_str(),
                         opt.check ? " and the float64 reference" : "");
            Buffers values = make_buffers(w, size, 0x5eed + rows.size(), dtype);
            RefBuffers ref;
            if (opt.check) ref = reference_of(w, values, size, dtype);
            StorageBuffers buffers(w, size, values, dtype);
            std::string copy_error;  // inputs that cannot reach the device: every row says so
            if (target == "cuda") {
                try {
                    for (const ArgShape &a : w.shapes(size)) {
                        if (!a.output) to_device(buffers.raw(a.name), w.pipeline + " input " + a.name);
                    }
                } catch (const Error &e) {
                    copy_error = e.what();
                }
            }
            const size_t first = rows.size();
            std::vector<const Variant *> here;
            for (const Variant *v : vs) {
                if (v->dtype != dtype) continue;
                here.push_back(v);
                std::fprintf(stderr, "  [%zu] %s %s ...\n", rows.size() + 1, v->name().c_str(),
                             format_size(size).c_str());
                if (!copy_error.empty()) {
                    Row r;
                    r.pipeline = v->pipeline, r.size = format_size(size), r.schedule = v->schedule;
                    r.target = v->target, r.kind = v->kind, r.dtype = v->dtype;
                    r.ok = false, r.error = copy_error;
                    rows.push_back(r);
                    continue;
                }
                rows.push_back(measure(*v, w, size, buffers, values, opt.check ? &ref : nullptr, opt));
            }
            if (!opt.peers.empty() && target == "cpu" && !opt.once)
                add_peer_rows(rows, w, size, dtype, values, opt.check ? &ref : nullptr, opt);
            if (tracer) {  // after every variant of this size has been timed
                std::fprintf(stderr, "  tracing %zu variants with CUPTI, %d calls each\n",
                             here.size(), kTracedCalls);
                for (size_t i = first; i < first + here.size(); i++)
                    trace(rows[i], *here[i - first], buffers, *tracer);
            }
            double base = NAN;
            for (size_t i = first; i < rows.size(); i++) {
                if (is_baseline(rows[i].schedule) && rows[i].error.empty())
                    base = rows[i].timing.median_us();
            }
            for (size_t i = first; i < rows.size(); i++) {
                if (rows[i].error.empty() && !opt.once)
                    rows[i].speedup = base / rows[i].timing.median_us();
            }
            write_json(true);  // a run cut short keeps every size it finished
          }
        }
        if (probes) {  // the faster of the two probes: the floor at the best this machine did
            const double bw_after = copy_probe(probe_after);
            const double bw = std::max(bw_before, bw_after);
            copy_probes[w.pipeline] = {{"before_gbs", bw_before},
                                       {"after_gbs", bw_after},
                                       {"before_methods", probe_before},
                                       {"after_methods", probe_after}};
            for (size_t i = workload_first; i < rows.size(); i++)
                rows[i].floor_us = rows[i].min_bytes / (bw * 1e3);
        }
        write_json(true);
    }
    const double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();

    print_header(opt.cupti);
    std::string last;
    for (const Row &r : rows) {
        if (!last.empty() && last != r.pipeline + r.size + r.dtype) std::printf("\n");
        last = r.pipeline + r.size + r.dtype;
        print_row(r, opt.cupti);
    }
    if (opt.once) {
        std::printf("\n%zu variant runs in %.0f s, one call each, not timed.\n", rows.size(),
                    elapsed);
    } else {
        std::printf(
            "\n%zu variant runs in %.0f s.\n"
            "us: median per call, the figure comparable with the peers' do_bench: on CUDA the GPU "
            "time between\n"
            "  device events around each call after an L2 flush; on the CPU the host figure.\n"
            "host us: host wall clock per call over back-to-back batches of at least %.0f ms, each "
            "ending with a\n"
            "  device sync. GB/s (the fewest bytes a call must move), GFLOP/s and speedup (over "
            "the unfused\n"
            "  baseline) use us.\n",
            rows.size(), elapsed, TimingOptions{}.min_batch_s * 1e3);
    }
    if (opt.cupti) {
        std::printf(
            "launches: kernels per call measured with CUPTI over %d calls after the timed ones "
            "(\"a..b\": the calls differ); kernel us: their summed GPU time per call, median.\n",
            kTracedCalls);
        bool header = false;
        for (const Row &r : rows) {
            if (!r.mismatch() && !r.launches_vary()) continue;
            if (!header) std::printf("\nLaunch counts that disagree with the ledger or vary:\n");
            header = true;
            std::string ledger = r.kernels < 0 ? "?" : std::to_string(r.kernels), per_call;
            for (const CallTrace &t : r.traced) per_call += " " + std::to_string(t.kernels);
            std::printf("  %s %s/%s/%s %s: ledger %s, measured per call:%s\n",
                        r.mismatch() ? "MISMATCH" : "VARIES", r.pipeline.c_str(),
                        r.schedule.c_str(), r.target.c_str(), r.size.c_str(), ledger.c_str(),
                        per_call.c_str());
        }
    }

    if (!opt.once) {
        std::vector<Measured> measured;
        std::vector<CostSample> samples;
        for (const Row &r : rows) {
            if (r.kind != "fuselab" || !r.error.empty() || r.timing.host_repeats == 0) continue;
            Measured m;
            m.workload = r.pipeline;
            m.size = r.size;
            m.schedule = r.schedule;
            m.dtype = r.dtype;
            m.target = r.target;
            m.sample = {r.pipeline, r.schedule, r.kernels > 0 ? r.kernels : 1,
                        double(r.min_bytes) + 2.0 * std::max<int64_t>(r.intermediate_bytes, 0),
                        r.timing.median_us()};
            measured.push_back(m);
            samples.push_back(m.sample);
        }
        const std::string device = target == "cuda" ? cuda_status().device : cpu_model();
        choice = fitted_leave_one_out(device, measured);  // as `fuselab tune --fit` ships it
        model = CostModel::fit(device, samples);
        print_choice_table(choice);
    }
    write_json(false);
    // A wrong answer or any error fails the run. A variant's worded refusal of a documented limit
    // (an autoscheduled schedule at a size its tiles do not fit, a one-shape variant at another
    // shape) is reported in its row and does not, nor does a launch count MISMATCH.
    // A peer's answer outside fuselab's bounds is its own (ONNX Runtime rounds its bfloat16
    // RMSNorm's intermediates to bfloat16): flagged WRONG in its row and counted apart.
    int wrong = 0, errors = 0, refused = 0, peers_wrong = 0;
    for (const Row &r : rows) {
        const bool bad = r.error.empty() && !r.ok;
        (r.kind == "peer" ? peers_wrong : wrong) += bad;
        errors += !r.error.empty() && !r.refused;
        refused += r.refused;
    }
    std::printf("\n%zu rows: %d wrong, %d errors, %d refused (documented limits)", rows.size(),
                wrong, errors, refused);
    if (peers_wrong) std::printf("; %d peer rows outside fuselab's bounds", peers_wrong);
    std::printf("\n");
    return wrong ? 2 : errors ? 3 : 0;
}

}  // namespace fuselab
