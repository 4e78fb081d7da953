#include "fuselab/choice.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <tuple>

namespace fuselab {

std::vector<ChoiceRow> leave_one_out(const std::string &device, const std::vector<Measured> &rows) {
    // By (workload, size, storage type): the strategies that compete for one call.
    std::map<std::tuple<std::string, std::string, std::string>, std::vector<const Measured *>> groups;
    for (const Measured &m : rows) {
        if (m.sample.us > 0) groups[{m.workload, m.size, m.dtype}].push_back(&m);
    }
    std::vector<ChoiceRow> out;
    for (const auto &[key, here] : groups) {
        if (here.size() < 2) continue;  // nothing to choose between
        std::vector<CostSample> others;
        for (const Measured &m : rows) {
            if (m.sample.us > 0 && !(m.workload == std::get<0>(key) && m.size == std::get<1>(key)))
                others.push_back(m.sample);  // every storage type of that size left out
        }
        const CostModel model = CostModel::fit(device, others);
        const Measured *pick = nullptr, *best = nullptr;
        double pick_us = 0;
        for (const Measured *m : here) {
            const double p = model.predict_us(m->sample.pipeline, m->sample.schedule,
                                              m->sample.kernels, m->sample.bytes);
            if (!pick || p < pick_us) pick = m, pick_us = p;
            if (!best || m->sample.us < best->sample.us) best = m;
        }
        ChoiceRow c{std::get<0>(key), std::get<1>(key), pick->schedule, best->schedule,
                    std::get<2>(key), pick_us, best->sample.us, pick->sample.us / best->sample.us};
        out.push_back(c);
    }
    return out;
}

void print_choice_table(const std::vector<ChoiceRow> &rows, double bound) {
    if (rows.empty()) return;
    std::vector<ChoiceRow> sorted = rows;
    std::stable_sort(sorted.begin(), sorted.end(),
                     [](const ChoiceRow &a, const ChoiceRow &b) { return a.regret < b.regret; });
    std::printf("\nThe cost model's choice at each (workload, size), fitted without that size's "
                "measurements:\n%-18s %-16s %-26s %-26s %7s\n",
                "workload", "size", "model's pick", "measured winner", "regret");
    int held = 0;
    for (const ChoiceRow &r : sorted) {
        held += r.regret <= bound;
        const std::string name = r.dtype == "float32" ? r.workload : r.workload + "/" + r.dtype;
        std::printf("%-18s %-16s %-26s %-26s %6.2fx%s\n", name.c_str(), r.size.c_str(),
                    r.predicted.c_str(), r.measured.c_str(), r.regret, r.regret <= bound ? "" : "  over");
    }
    std::printf("%d of %zu within %.2fx of the measured winner\n", held, sorted.size(), bound);
}

}  // namespace fuselab
