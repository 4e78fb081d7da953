// `fuselab tune`: every strategy timed on the suite's shapes (or --size), each winner recorded in
// the tuning file (choose.h); or, with --fit, the cost model fitted from bench JSON files, with the
// table of how it chooses for shapes left out of its fit.
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "commands.h"
#include "fuselab/choice.h"
#include "fuselab/choose.h"
#include "fuselab/device.h"
#include "fuselab/error.h"
#include "fuselab/measured.h"
#include "fuselab/workloads.h"

namespace fuselab::cli {
namespace {

using nlohmann::json;

json read_json(const std::string &path) {
    std::ifstream in(path);
    if (!in) throw Error("tune --fit: cannot read " + path);
    std::stringstream text;
    text << in.rdbuf();
    json doc = json::parse(text.str(), nullptr, false);
    if (!doc.is_object() || !doc.value("records", json()).is_array())
        throw Error("tune --fit: " + path + " is not a bench JSON file ({\"meta\", \"records\"})");
    return doc;
}

// The bench file's device and its fuselab rows that ran: the model's samples.
std::string measured_rows(const json &doc, std::vector<Measured> *rows) {
    const json &meta = doc.value("meta", json::object());
    std::string device = meta.value("device", std::string());
    if (device.empty() && meta.value("fuselab", json()).is_object())
        device = meta["fuselab"].value("device", std::string());
    for (const json &r : doc["records"]) {
        if (r.value("kind", "") != "fuselab" || !r.value("median_us", json()).is_number()) continue;
        if (r.value("error", json()).is_string()) continue;
        Measured m;
        m.workload = r.value("workload", "");
        m.size = r.value("size", "");
        m.schedule = r.value("name", "");
        m.dtype = r.value("dtype", json()).is_string() ? r["dtype"].get<std::string>() : "float32";
        m.target = r.value("target", json()).is_string() ? r["target"].get<std::string>()
                   : nvidia_device(device)               ? "cuda"
                                                         : "cpu";
        m.sample.pipeline = m.workload;
        m.sample.schedule = m.schedule;
        m.sample.kernels = r.value("kernels", json()).is_number() ? r["kernels"].get<int>() : 1;
        const json ib = r.value("intermediate_bytes", json());
        m.sample.bytes =
            r.value("min_bytes", 0.0) + 2.0 * (ib.is_number() ? ib.get<double>() : 0.0);
        m.sample.us = r["median_us"].get<double>();
        rows->push_back(m);
    }
    return device;
}

int fit_command(const TuneOptions &opt) {
    json models = json::object();
    std::map<std::string, MeasuredTable> tables;
    for (const std::string &path : opt.fit) {
        std::vector<Measured> rows;
        const std::string device = measured_rows(read_json(path), &rows);
        if (device.empty()) throw Error("tune --fit: " + path + " names no device in its meta");
        std::vector<CostSample> samples;
        for (const Measured &m : rows) samples.push_back(m.sample);
        const CostModel model = CostModel::fit(device, samples);
        std::printf("%s: %zu measured calls on %s: launch %.2f us, %.0f GB/s\n", path.c_str(),
                    rows.size(), device.c_str(), model.launch_us, model.gbps);
        // A CPU's rows: their whole-vector term counts the host's float32 lanes or 16 bytes,
        // whichever picks better here with each size left out (MeasuredFeature::vector_lanes; the
        // Xeon's lanes, the AMD EPYC's 16 bytes: results/runs/2026-12-07-gpu-s50/lanes/).
        int cpu_lanes = -1;
        const std::vector<ChoiceRow> table = fitted_leave_one_out(device, rows, &cpu_lanes);
        if (std::any_of(rows.begin(), rows.end(),
                        [](const Measured &m) { return m.target == "cpu"; })) {
            std::printf("the CPU rows' vector: %s\n",
                        cpu_lanes == 0 ? "16 bytes"
                                       : (std::to_string(cpu_lanes_of(device)) + " lanes").c_str());
        }
        print_choice_table(table);
        models[device] = json::parse(model.to_json());
        tables[device] = measured_table(device, path, rows, cpu_lanes);
        if (!opt.choice_out.empty()) {  // one file's table, for results/report.py
            json out = {{"device", device},
                        {"source", path},
                        {"model", models[device]},
                        {"choice", json::array()}};
            for (const ChoiceRow &c : table) {
                out["choice"].push_back({{"workload", c.workload},
                                         {"size", c.size},
                                         {"dtype", c.dtype},
                                         {"predicted", c.predicted},
                                         {"source", c.source},
                                         {"measured", c.measured},
                                         {"predicted_us", c.predicted_us},
                                         {"measured_us", c.measured_us},
                                         {"regret", c.regret}});
            }
            std::ofstream(opt.choice_out) << out.dump(1) << "\n";
            std::printf("wrote %s\n", opt.choice_out.c_str());
        }
        if (opt.record) {
            record_model(model);
            std::printf("recorded the fit for %s in %s\n", device.c_str(), tuning_file().c_str());
        }
    }
    if (!opt.measured_out.empty()) {
        std::ofstream(opt.measured_out) << measured_to_json(tables) << "\n";
        std::printf("wrote %s\n", opt.measured_out.c_str());
    }
    if (!opt.models_out.empty()) {
        std::ofstream(opt.models_out) << models.dump(1) << "\n";
        std::printf("wrote %s\n", opt.models_out.c_str());
    }
    return 0;
}

}  // namespace

int tune_command(const TuneOptions &opt) {
    if (!opt.fit.empty()) return fit_command(opt);
    const std::string target = resolve_target(opt.target);
    if (target == "cuda" && !cuda_status().usable)
        throw Error("tune --target cuda: no usable CUDA device: " + cuda_status().reason);
    TimingOptions timing;
    timing.budget_s = opt.budget_s;
    timing.device_budget_s = opt.budget_s / 2;
    std::printf("tuning on %s; records in %s\n", device_name(target).c_str(),
                tuning_file().c_str());
    for (const Workload &w : workloads()) {
        if (!opt.pipelines.empty() && std::find(opt.pipelines.begin(), opt.pipelines.end(),
                                                w.pipeline) == opt.pipelines.end())
            continue;
        std::vector<std::string> dtypes;  // the storage types built for the target
        for (const Variant &v : variants()) {
            if (v.pipeline == w.pipeline && v.target == target &&
                std::find(dtypes.begin(), dtypes.end(), v.dtype) == dtypes.end())
                dtypes.push_back(v.dtype);
        }
        const std::vector<Size> sizes = dtypes.empty() ? std::vector<Size>{}
                                        : !opt.size.empty()
                                            ? std::vector<Size>{parse_size(w, opt.size)}
                                        : target == "cuda" ? w.cuda_sizes
                                                           : w.cpu_sizes;
        for (const Size &size : sizes) {
            for (const std::string &dtype : dtypes) {
                Buffers values = make_buffers(w, size, 0x7e57, dtype);
                StorageBuffers buffers(w, size, values, dtype);
                if (target == "cuda") {
                    for (const ArgShape &a : w.shapes(size)) {
                        if (!a.output)
                            to_device(buffers.raw(a.name), w.pipeline + " input " + a.name);
                    }
                }
                const Choice c = tune(w.pipeline, buffers.bind(), target, timing);
                std::printf("%-18s %-16s %-9s %-26s %s\n", w.pipeline.c_str(),
                            format_size(size).c_str(), dtype.c_str(), c.variant->schedule,
                            c.reason.c_str());
                std::fflush(stdout);
            }
        }
    }
    return 0;
}

}  // namespace fuselab::cli
