#include "fuselab/choice.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <tuple>

#include "fuselab/workloads.h"

namespace fuselab {

namespace {

// Each size dimension's feature: the first argument extent that follows that dimension alone
// (found by doubling it), with its weight; on the CPU, and where the workload weighs it, that
// argument's element count too. `cpu_lanes`: measured_table's.
std::vector<MeasuredFeature> features_of(const Workload &w, const std::string &target,
                                         int cpu_lanes) {
    std::vector<std::string> names;
    for (size_t b = 0, e; b <= w.size_format.size(); b = e + 1) {
        e = w.size_format.find('x', b);
        if (e == std::string::npos) e = w.size_format.size();
        names.push_back(w.size_format.substr(b, e - b));
    }
    const Size base = !w.cuda_sizes.empty() ? w.cuda_sizes.front() : w.cpu_sizes.front();
    const std::vector<ArgShape> at_base = w.shapes(base);
    std::vector<std::vector<ArgShape>> doubled;
    for (size_t i = 0; i < base.size(); i++) {
        Size s = base;
        s[i] *= 2;
        doubled.push_back(w.shapes(s));
    }
    std::vector<MeasuredFeature> out;
    for (size_t i = 0; i < base.size(); i++) {
        bool found = false;
        for (size_t a = 0; a < at_base.size() && !found; a++) {
            for (size_t d = 0; d < at_base[a].extents.size() && !found; d++) {
                bool only_i = doubled[i][a].extents[d] != at_base[a].extents[d];
                for (size_t j = 0; j < base.size() && only_i; j++)
                    only_i = j == i || doubled[j][a].extents[d] == at_base[a].extents[d];
                if (!only_i) continue;
                const double weight = i < w.choice_weights.size() ? w.choice_weights[i] : 1.0;
                const double align =
                    i < w.choice_align_weights.size() ? w.choice_align_weights[i] : 0.0;
                const double vector =
                    i < w.choice_vector_weights.size() ? w.choice_vector_weights[i] : 0.0;
                out.push_back({i < names.size() ? names[i] : "d" + std::to_string(i),
                               at_base[a].name, static_cast<int>(d), weight, align, vector});
                found = true;
            }
        }
        if (!found) return {};  // a dimension no argument shows: the model decides
    }
    if (target == "cpu" && w.cpu_choice_split_weight > 0 && !out.empty()) {
        out.front().split = w.cpu_choice_split;
        out.front().split_weight = w.cpu_choice_split_weight;
        out.front().short_split = w.cpu_choice_short_split;
    }
    if (target == "cpu" && w.cpu_choice_vector_lanes && cpu_lanes > 0 && !out.empty())
        out.front().vector_lanes = cpu_lanes;
    if (target == "cuda" && w.cuda_choice_fill_weight > 0 && !out.empty())
        out.front().fill_weight = w.cuda_choice_fill_weight;
    if (target == "cuda" && w.cuda_choice_exact_weight > 0 && !out.empty())
        out.front().exact_weight = w.cuda_choice_exact_weight;
    if (target == "cpu" && w.cpu_choice_elements_weight > 0 && !out.empty())
        out.push_back({"elements", out.front().arg, -1, w.cpu_choice_elements_weight, 0, 0});
    return out;
}

std::vector<double> feature_values(const Workload &w, const std::vector<MeasuredFeature> &features,
                                   const std::string &size) {
    const std::vector<ArgShape> shapes = w.shapes(parse_size(w, size));
    std::vector<double> at;
    for (const MeasuredFeature &f : features) {
        for (const ArgShape &a : shapes) {
            if (a.name != f.arg) continue;
            double elements = 1;
            for (int e : a.extents) elements *= e;
            at.push_back(f.dim < 0 ? elements : a.extents[f.dim]);
        }
    }
    return at;
}

}  // namespace

MeasuredTable measured_table(const std::string &device, const std::string &source,
                             const std::vector<Measured> &rows, int cpu_lanes) {
    if (cpu_lanes < 0) cpu_lanes = cpu_lanes_of(device);
    MeasuredTable t;
    t.device = device;
    t.source = source;
    std::map<std::tuple<std::string, std::string, std::string, std::string>, size_t> index;
    for (const Measured &m : rows) {
        if (!(m.sample.us > 0)) continue;
        const Workload *w = nullptr;
        for (const Workload &known : workloads()) {
            if (known.pipeline == m.workload) w = &known;
        }
        if (!w) continue;  // a workload this build does not register
        MeasuredPipeline &p = t.pipelines[m.workload];
        if (p.features.empty()) p.features = features_of(*w, m.target, cpu_lanes);
        if (p.features.empty()) continue;
        const auto key = std::make_tuple(m.workload, m.target, m.dtype, m.size);
        auto it = index.find(key);
        if (it == index.end()) {
            MeasuredShape s;
            s.target = m.target;
            s.dtype = m.dtype;
            s.size = m.size;
            s.at = feature_values(*w, p.features, m.size);
            it = index.emplace(key, p.shapes.size()).first;
            p.shapes.push_back(s);
        }
        p.shapes[it->second].us[m.schedule] = m.sample.us;
    }
    for (auto it = t.pipelines.begin(); it != t.pipelines.end();) {
        it = it->second.shapes.empty() ? t.pipelines.erase(it) : std::next(it);
    }
    for (auto &[name, p] : t.pipelines) index_measured(p);
    return t;
}

std::vector<ChoiceRow> leave_one_out(const std::string &device, const std::vector<Measured> &rows,
                                     int cpu_lanes) {
    // By (workload, size, storage type): the strategies that compete for one call.
    std::map<std::tuple<std::string, std::string, std::string>, std::vector<const Measured *>>
        groups;
    for (const Measured &m : rows) {
        if (m.sample.us > 0) groups[{m.workload, m.size, m.dtype}].push_back(&m);
    }
    const MeasuredTable table = measured_table(device, "", rows, cpu_lanes);
    std::vector<ChoiceRow> out;
    for (const auto &[key, here] : groups) {
        if (here.size() < 2) continue;  // nothing to choose between
        // Copies, not structured bindings: C++17 lambdas cannot capture those (clang refuses).
        const std::string workload = std::get<0>(key), size = std::get<1>(key),
                          dtype = std::get<2>(key);
        const Measured *pick = nullptr, *best = nullptr;
        for (const Measured *m : here) {
            if (!best || m->sample.us < best->sample.us) best = m;
        }
        ChoiceRow c{workload, size, "", best->schedule, dtype, 0, best->sample.us, 1, "measured"};
        // The nearest other sizes measured, as choose() consults the shipped table.
        if (auto p = table.pipelines.find(workload); p != table.pipelines.end()) {
            std::vector<std::string> names;
            for (const Measured *m : here) names.push_back(m->schedule);
            std::vector<double> bytes;  // each intermediate counted twice, as choose() counts
            for (const Measured *m : here) bytes.push_back(m->sample.bytes);
            const std::vector<double> at = [&] {
                for (const MeasuredShape &s : p->second.shapes) {
                    if (s.size == size) return s.at;
                }
                return std::vector<double>();
            }();
            for (double radius : kMeasuredRadii) {
                if (pick) break;
                if (auto mp = pick_measured(p->second, here.front()->target, dtype, at, names, size,
                                            round_trips(bytes), radius)) {
                    for (const Measured *m : here) {
                        if (m->schedule == mp->schedule) pick = m;
                    }
                }
            }
        }
        if (!pick) {  // the model, fitted without this size, measured strategies first
            std::vector<CostSample> others;
            for (const Measured &m : rows) {
                if (m.sample.us > 0 && !(m.workload == workload && m.size == size))
                    others.push_back(m.sample);  // every storage type of that size left out
            }
            const CostModel model = CostModel::fit(device, others);
            double pick_us = 0;
            bool pick_unmeasured = true;
            for (const Measured *m : here) {
                const double p = model.predict_us(m->sample.pipeline, m->sample.schedule,
                                                  m->sample.kernels, m->sample.bytes);
                const bool unmeasured = !model.measured(m->sample.pipeline, m->sample.schedule);
                if (!pick ||
                    std::make_pair(unmeasured, p) < std::make_pair(pick_unmeasured, pick_us))
                    pick = m, pick_us = p, pick_unmeasured = unmeasured;
            }
            c.predicted_us = pick_us;
            c.source = "model";
        } else {
            c.predicted_us = pick->sample.us;
        }
        c.predicted = pick->schedule;
        c.regret = pick->sample.us / best->sample.us;
        out.push_back(c);
    }
    return out;
}

bool better_choice(const std::vector<ChoiceRow> &a, const std::vector<ChoiceRow> &b, double bound) {
    auto score = [bound](const std::vector<ChoiceRow> &rows) {
        int held = 0;
        double log_sum = 0;
        for (const ChoiceRow &r : rows) held += r.regret <= bound, log_sum += std::log(r.regret);
        return std::make_pair(held, -log_sum);
    };
    return score(a) > score(b);
}

std::vector<ChoiceRow> fitted_leave_one_out(const std::string &device,
                                            const std::vector<Measured> &rows, int *cpu_lanes) {
    int lanes = -1;
    std::vector<ChoiceRow> table = leave_one_out(device, rows);
    const auto cpu = [](const Measured &m) { return m.target == "cpu"; };
    if (std::any_of(rows.begin(), rows.end(), cpu)) {
        std::vector<ChoiceRow> bytes = leave_one_out(device, rows, 0);
        if (better_choice(bytes, table)) table = std::move(bytes), lanes = 0;
    }
    if (cpu_lanes) *cpu_lanes = lanes;
    return table;
}

void print_choice_table(const std::vector<ChoiceRow> &rows, double bound) {
    if (rows.empty()) return;
    std::vector<ChoiceRow> sorted = rows;
    std::stable_sort(sorted.begin(), sorted.end(),
                     [](const ChoiceRow &a, const ChoiceRow &b) { return a.regret < b.regret; });
    std::printf(
        "\nfuselab's choice at each (workload, size, type), with that size's measurements left "
        "out\n(the nearest measured sizes, else the cost model fitted without it):\n"
        "%-18s %-16s %-9s %-26s %-26s %-8s %7s\n",
        "workload", "size", "dtype", "pick", "measured winner", "by", "regret");
    int held = 0;
    double log_sum = 0;
    for (const ChoiceRow &r : sorted) {
        held += r.regret <= bound;
        log_sum += std::log(r.regret);
        std::printf("%-18s %-16s %-9s %-26s %-26s %-8s %6.2fx%s\n", r.workload.c_str(),
                    r.size.c_str(), r.dtype.c_str(), r.predicted.c_str(), r.measured.c_str(),
                    r.source.c_str(), r.regret, r.regret <= bound ? "" : "  over");
    }
    std::printf("%d of %zu within %.2fx of the measured winner; geometric mean regret %.3f\n", held,
                sorted.size(), bound, std::exp(log_sum / sorted.size()));
}

}  // namespace fuselab
