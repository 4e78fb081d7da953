#include "fuselab/measured.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "fuselab/error.h"
#include "fuselab/shipped_measured.h"

namespace fuselab {

namespace {
using nlohmann::json;

// Whether a CPU's device name carries kNoAvx512 (cpu_device_name: the host lacks AVX-512).
bool named_without_avx512(const std::string &device) {
    const std::string suffix = kNoAvx512;
    return device.size() > suffix.size() &&
           device.compare(device.size() - suffix.size(), suffix.size(), suffix) == 0;
}
}  // namespace

std::map<std::string, MeasuredTable> measured_from_json(const std::string &text) {
    const json doc = json::parse(text, nullptr, false);
    if (!doc.is_object() || doc.value("fuselab_measured", 0) != 1)
        throw Error("not a fuselab table of measured shapes ({\"fuselab_measured\": 1, ...})");
    std::map<std::string, MeasuredTable> out;
    try {
        const json devices =
            doc.value("devices", json::object());  // named: items() must not dangle
        for (const auto &[device, t] : devices.items()) {
            MeasuredTable &table = out[device];
            table.device = device;
            table.source = t.value("source", std::string());
            const json pipelines = t.value("pipelines", json::object());
            for (const auto &[pipeline, p] : pipelines.items()) {
                MeasuredPipeline &mp = table.pipelines[pipeline];
                for (const json &f : p.at("features")) {
                    mp.features.push_back(
                        {f.at("name").get<std::string>(), f.at("arg").get<std::string>(),
                         f.at("dim").get<int>(), f.at("weight").get<double>(),
                         f.value("align_weight", 0.0), f.value("vector_weight", 0.0),
                         f.value("split", 0.0), f.value("split_weight", 0.0),
                         f.value("fill_weight", 0.0), f.value("exact_weight", 0.0),
                         f.value("short_split", 0.0), f.value("vector_lanes", 0.0)});
                }
                for (const json &s : p.at("shapes")) {
                    MeasuredShape ms;
                    ms.target = s.at("target").get<std::string>();
                    ms.dtype = s.at("dtype").get<std::string>();
                    ms.size = s.at("size").get<std::string>();
                    ms.at = s.at("at").get<std::vector<double>>();
                    ms.us = s.at("us").get<std::map<std::string, double>>();
                    if (ms.at.size() != mp.features.size())
                        throw Error(pipeline + " " + ms.size + ": one extent a feature expected");
                    mp.shapes.push_back(std::move(ms));
                }
                index_measured(mp);
            }
        }
    } catch (const json::exception &e) {
        throw Error(std::string("a malformed table of measured shapes: ") + e.what());
    }
    return out;
}

std::string measured_to_json(const std::map<std::string, MeasuredTable> &tables) {
    json devices = json::object();
    for (const auto &[device, t] : tables) {
        json pipelines = json::object();
        for (const auto &[name, p] : t.pipelines) {
            json features = json::array(), shapes = json::array();
            for (const MeasuredFeature &f : p.features)
                features.push_back({{"name", f.name},
                                    {"arg", f.arg},
                                    {"dim", f.dim},
                                    {"weight", f.weight},
                                    {"align_weight", f.align_weight},
                                    {"vector_weight", f.vector_weight},
                                    {"split", f.split},
                                    {"split_weight", f.split_weight},
                                    {"fill_weight", f.fill_weight},
                                    {"exact_weight", f.exact_weight},
                                    {"short_split", f.short_split},
                                    {"vector_lanes", f.vector_lanes}});
            for (const MeasuredShape &s : p.shapes) {
                shapes.push_back({{"target", s.target},
                                  {"dtype", s.dtype},
                                  {"size", s.size},
                                  {"at", s.at},
                                  {"us", s.us}});
            }
            pipelines[name] = {{"features", features}, {"shapes", shapes}};
        }
        devices[device] = {{"source", t.source}, {"pipelines", pipelines}};
    }
    return json{{"fuselab_measured", 1}, {"devices", devices}}.dump(1);
}

const MeasuredPipeline *shipped_measured(const std::string &device, const std::string &pipeline,
                                         std::string *source) {
    static std::mutex m;
    // Built once and never changed: callers keep the pointer.
    static std::map<std::pair<std::string, std::string>, std::unique_ptr<MeasuredPipeline>> built;
    for (int k = 0; k < detail::kShippedPipelineCount; k++) {
        const detail::ShippedPipeline &sp = detail::kShippedPipelines[k];
        if (device != sp.device || pipeline != sp.pipeline) continue;
        if (source) *source = sp.source;
        std::lock_guard<std::mutex> lock(m);
        std::unique_ptr<MeasuredPipeline> &p = built[{device, pipeline}];
        if (!p) {
            p = std::make_unique<MeasuredPipeline>();
            for (int i = 0; i < sp.num_features; i++) {
                const detail::ShippedFeature &f = sp.features[i];
                p->features.push_back({f.name, f.arg, f.dim, f.weight, f.align_weight,
                                       f.vector_weight, f.split, f.split_weight, f.fill_weight,
                                       f.exact_weight, f.short_split, f.vector_lanes});
            }
            p->shapes.reserve(sp.num_shapes);
            for (int i = 0; i < sp.num_shapes; i++) {
                const detail::ShippedShape &s = sp.shapes[i];
                MeasuredShape ms;
                ms.target = s.target, ms.dtype = s.dtype, ms.size = s.size;
                ms.at.assign(s.at, s.at + sp.num_features);
                for (int j = 0; j < s.count; j++)
                    ms.us.emplace_hint(ms.us.end(), s.us[j].schedule, s.us[j].us);
                p->shapes.push_back(std::move(ms));
            }
            index_measured(*p);
        }
        return p.get();
    }
    return nullptr;
}

bool nvidia_device(const std::string &device) {
    return device.rfind("NVIDIA", 0) == 0;
}

std::string cpu_device_name(const std::string &model_name, const std::string &flags) {
    if (flags.empty()) return model_name;  // no flags line: not an x86 CPU as Linux reports one
    std::istringstream in(flags);
    std::set<std::string> have;
    for (std::string f; in >> f;) have.insert(f);
    for (const char *f : {"avx512f", "avx512cd", "avx512bw", "avx512dq", "avx512vl"}) {
        if (!have.count(f)) return model_name + kNoAvx512;
    }
    return model_name;
}

std::vector<ShippedTable> shipped_measured_tables(const std::string &device,
                                                  const std::string &pipeline) {
    std::vector<ShippedTable> out;
    std::string source;
    if (const MeasuredPipeline *own = shipped_measured(device, pipeline, &source))
        out.push_back({device, source, own});
    if (!nvidia_device(device)) {
        if (named_without_avx512(device)) {
            const std::string twin = device.substr(0, device.size() - std::strlen(kNoAvx512));
            if (const MeasuredPipeline *t = shipped_measured(twin, pipeline, &source))
                out.push_back({twin, source, t});
        }
        if (!out.empty()) return out;
        // A CPU no table names: every CPU's, those of its own instruction set first.
        for (const bool same : {true, false}) {
            for (int k = 0; k < detail::kShippedPipelineCount; k++) {
                const detail::ShippedPipeline &sp = detail::kShippedPipelines[k];
                if (sp.pipeline != pipeline || nvidia_device(sp.device)) continue;
                if ((named_without_avx512(sp.device) == named_without_avx512(device)) != same)
                    continue;
                out.push_back({sp.device, sp.source, shipped_measured(sp.device, pipeline)});
            }
        }
        return out;
    }
    for (int k = 0; k < detail::kShippedPipelineCount; k++) {
        const detail::ShippedPipeline &sp = detail::kShippedPipelines[k];
        if (sp.pipeline != pipeline || !nvidia_device(sp.device) || sp.device == device) continue;
        out.push_back({sp.device, sp.source, shipped_measured(sp.device, pipeline)});
    }
    return out;
}

std::optional<TablePick> pick_measured_across(const std::vector<const MeasuredPipeline *> &tables,
                                              const std::string &target, const std::string &dtype,
                                              const std::vector<std::vector<double>> &at,
                                              const std::vector<std::string> &schedules,
                                              const std::vector<bool> &round_trips) {
    std::optional<TablePick> best;
    for (double radius : kMeasuredRadii) {
        for (size_t i = 0; i < tables.size() && i < at.size(); i++) {
            if (best && best->pick.distance <= kTableSlack) break;  // none can be nearer by more
            auto pick = pick_measured_or_twin(*tables[i], target, dtype, at[i], schedules,
                                              round_trips, radius);
            if (pick && (!best || pick->distance + kTableSlack < best->pick.distance))
                best = TablePick{*pick, i};
        }
        if (best) return best;
    }
    return best;
}

int alignment_class(double n, int cap) {
    int k = 0;
    for (int64_t v = static_cast<int64_t>(n); v > 0 && v % 2 == 0 && k < cap; v /= 2) k++;
    return k;
}

namespace {
// The bytes an element of `dtype` takes (4 where unknown).
int element_bytes(const std::string &dtype) {
    return dtype == "bfloat16" || dtype == "float16" ? 2 : 4;
}

// Whether n elements are whole vectors of `lanes` elements (pick_measured asks it per shape, with
// each feature's lanes found once).
bool whole_vectors_of(double n, int lanes) {
    return static_cast<int64_t>(n) % lanes == 0;
}

// A feature's vector in elements: its vector_lanes, else the 16-byte vector of `bytes`-byte ones.
int vector_elements(const MeasuredFeature &f, int bytes) {
    return f.vector_lanes > 0 ? static_cast<int>(f.vector_lanes) : 16 / bytes;
}
}  // namespace

int cpu_lanes_of(const std::string &device) {
    return named_without_avx512(device) ? 8 : 16;
}

double chunk_fill(double n, double chunk) {
    return n / (std::ceil(n / chunk) * chunk);
}

bool exact_length(double n) {
    if (!(n >= 256 && n <= 16384) || n != std::floor(n)) return false;
    const auto k = static_cast<long>(n);
    return (k & (k - 1)) == 0;
}

bool whole_vectors(double n, const std::string &dtype) {
    return whole_vectors_of(n, 16 / element_bytes(dtype));
}

std::vector<double> measured_features(const MeasuredPipeline &p, const Bindings &args) {
    std::vector<double> at;
    for (const MeasuredFeature &f : p.features) {
        auto it = args.find(f.arg);
        if (it == args.end() || !it->second || f.dim >= it->second->dimensions) return {};
        if (f.dim >= 0) {
            at.push_back(it->second->dim[f.dim].extent);
            continue;
        }
        double e = 1;  // dim -1: every extent's product, the argument's elements
        for (int d = 0; d < it->second->dimensions; d++) e *= it->second->dim[d].extent;
        at.push_back(e);
    }
    return at;
}

std::vector<bool> round_trips(const std::vector<double> &bytes) {
    const double least = bytes.empty() ? 0 : *std::min_element(bytes.begin(), bytes.end());
    std::vector<bool> trips;
    for (double b : bytes) trips.push_back(b > least * (1 + kRoundTripShare));
    return trips;
}

void index_measured(MeasuredPipeline &p) {
    p.schedules.clear();
    p.by_kind.clear();
    for (const MeasuredShape &s : p.shapes) {
        for (const auto &[name, us] : s.us) p.schedules.push_back(name);
    }
    std::sort(p.schedules.begin(), p.schedules.end());
    p.schedules.erase(std::unique(p.schedules.begin(), p.schedules.end()), p.schedules.end());
    for (size_t i = 0; i < p.shapes.size(); i++) {
        MeasuredShape &s = p.shapes[i];
        s.log2_at.clear();
        s.class_at.clear();
        s.fill_at.clear();
        for (double e : s.at) {
            s.log2_at.push_back(std::log2(e));
            s.class_at.push_back(alignment_class(e));
            for (double c : kFillChunks) s.fill_at.push_back(chunk_fill(e, c));
        }
        s.times.assign(p.schedules.size(), NAN);
        s.indexed_us = s.us.size();
        size_t k = 0;
        for (const auto &[name, us] : s.us) {  // both in name order
            while (p.schedules[k] != name) k++;
            s.times[k] = us;
        }
        p.by_kind[s.target + "/" + s.dtype].push_back(i);
    }
}

namespace {
// Whether index_measured's kinds hold every shape of p; each shape's own index is checked where
// pick_measured reads it (shape_indexed), not here: a pass over every shape of the table was a
// tenth of a new shape's lookup (s40).
bool indexed(const MeasuredPipeline &p) {
    size_t n = 0;
    for (const auto &[kind, shapes] : p.by_kind) n += shapes.size();
    return n == p.shapes.size();
}

bool shape_indexed(const MeasuredPipeline &p, const MeasuredShape &s) {
    return s.times.size() == p.schedules.size() && s.log2_at.size() == s.at.size() &&
           s.class_at.size() == s.at.size() && s.fill_at.size() == s.at.size() * kNumFillChunks &&
           s.us.size() == s.indexed_us;
}
}  // namespace

std::optional<MeasuredPick> pick_measured(const MeasuredPipeline &p, const std::string &target,
                                          const std::string &dtype, const std::vector<double> &at,
                                          const std::vector<std::string> &schedules,
                                          const std::string &skip_size,
                                          const std::vector<bool> &round_trips, double radius) {
    if (at.size() != p.features.size() || at.empty()) return std::nullopt;
    // A table built by hand (tests) or changed since: an indexed copy.
    const auto reindexed = [&]() {
        MeasuredPipeline copy = p;
        index_measured(copy);
        return pick_measured(copy, target, dtype, at, schedules, skip_size, round_trips, radius);
    };
    if (!indexed(p)) return reindexed();
    struct Near {
        double d;
        const MeasuredShape *s;
        int ran;  // candidates measured there
    };
    std::vector<Near> near;
    // Each feature's vector in elements (vector_elements: the 16-byte vector, 4 float32 or 8
    // 16-bit elements, or its vector_lanes).
    const int bytes = element_bytes(dtype);
    std::vector<int> lanes(at.size());
    for (size_t i = 0; i < at.size(); i++) lanes[i] = vector_elements(p.features[i], bytes);
    // The first feature that weighs whole vectors: its alignment scopes the coverage (below).
    int vector_feature = -1;
    for (size_t i = 0; i < p.features.size() && vector_feature < 0; i++) {
        if (p.features[i].vector_weight > 0) vector_feature = static_cast<int>(i);
    }
    // The call's own side of each feature, once (a table holds hundreds of shapes).
    std::vector<int> caps(at.size()), classes(at.size());
    std::vector<bool> whole(at.size());
    std::vector<double> log2_at(at.size()), fill_at;
    for (size_t i = 0; i < at.size(); i++) {
        log2_at[i] = std::log2(at[i]);
        for (double c : kFillChunks) fill_at.push_back(chunk_fill(at[i], c));
        caps[i] = p.features[i].vector_weight > 0 ? alignment_class(lanes[i]) : 8;
        classes[i] = alignment_class(at[i], caps[i]);
        whole[i] = whole_vectors_of(at[i], lanes[i]);
    }
    // Each of `schedules`' column in the shapes' times, or -1 where no shape timed it.
    std::vector<int> column(schedules.size(), -1);
    for (size_t k = 0; k < schedules.size(); k++) {
        auto it = std::lower_bound(p.schedules.begin(), p.schedules.end(), schedules[k]);
        if (it != p.schedules.end() && *it == schedules[k])
            column[k] = static_cast<int>(it - p.schedules.begin());
    }
    // Each of `schedules`' time at a near shape, NaN where not measured.
    auto time = [&column](const Near &n, size_t k) {
        return column[k] >= 0 ? n.s->times[column[k]] : NAN;
    };
    const auto kind = p.by_kind.find(target + "/" + dtype);
    if (kind == p.by_kind.end()) return std::nullopt;
    for (size_t index : kind->second) {
        const MeasuredShape &s = p.shapes[index];
        if (!shape_indexed(p, s)) return reindexed();
        if (!skip_size.empty() && s.size == skip_size) continue;
        // The distance in log2 first: every term adds, and most shapes of a table are farther
        // than the radius in it alone, so the rest is summed only for the others.
        double d = 0;
        for (size_t i = 0; i < at.size(); i++) {
            if (!(at[i] > 0) || !(s.at[i] > 0)) return std::nullopt;
            d += p.features[i].weight * std::fabs(log2_at[i] - s.log2_at[i]);
        }
        if (!(d <= radius)) continue;
        for (size_t i = 0; i < at.size(); i++) {
            const MeasuredFeature &f = p.features[i];
            d += f.align_weight * std::abs(classes[i] - std::min(s.class_at[i], caps[i]));
            if (f.vector_weight > 0 && whole[i] != whole_vectors_of(s.at[i], lanes[i]))
                d += f.vector_weight;
            if (f.split_weight > 0 && (at[i] <= f.split) != (s.at[i] <= f.split))
                d += f.split_weight;
            if (f.split_weight > 0 && f.short_split > 0 &&
                (at[i] < f.short_split) != (s.at[i] < f.short_split))
                d += f.split_weight;
            if (f.fill_weight > 0) {
                double fill = 0;
                for (size_t c = 0; c < kNumFillChunks; c++)
                    fill += std::fabs(fill_at[i * kNumFillChunks + c] -
                                      s.fill_at[i * kNumFillChunks + c]);
                d += f.fill_weight * fill;
            }
            if (f.exact_weight > 0 && exact_length(at[i]) != exact_length(s.at[i]))
                d += f.exact_weight;
        }
        if (!(d <= radius)) continue;
        Near n{d, &s, 0};
        for (size_t k = 0; k < schedules.size(); k++) n.ran += !std::isnan(time(n, k));
        // Only shapes where at least two of the candidates ran can rank them.
        if (n.ran >= 2) near.push_back(std::move(n));
    }
    if (near.empty()) return std::nullopt;
    // Coverage: the schedules that win at a near shape of the call's alignment; a near shape that
    // did not time each of them is left out, unless none did.
    auto same_alignment = [&](const MeasuredShape &s) {
        return vector_feature < 0 ||
               whole_vectors_of(s.at[vector_feature], lanes[vector_feature]) ==
                   whole[vector_feature];
    };
    std::vector<size_t> winners;
    for (const Near &n : near) {
        if (!same_alignment(*n.s)) continue;
        int w = -1;
        for (size_t k = 0; k < schedules.size(); k++) {
            if (!std::isnan(time(n, k)) && (w < 0 || time(n, k) < time(n, w)))
                w = static_cast<int>(k);
        }
        if (w >= 0 && std::find(winners.begin(), winners.end(), size_t(w)) == winners.end())
            winners.push_back(w);
    }
    auto covers = [&](const Near &n) {
        for (size_t w : winners) {
            if (std::isnan(time(n, w))) return false;
        }
        return true;
    };
    if (std::any_of(near.begin(), near.end(), covers)) {
        near.erase(
            std::remove_if(near.begin(), near.end(), [&](const Near &n) { return !covers(n); }),
            near.end());
    }
    // A shape where few of the candidates ran (an older run, before later strategies existed)
    // ranks them against a weaker field: its winner there may be slow where the rest ran (s25:
    // the leave-one-out pick of softmax float32 1417x1480, 3.09x, from one shape of six of nine
    // strategies). So only shapes with at least 3/4 of the best-covered near shape's candidates.
    int most = 0;
    for (const Near &n : near) most = std::max(most, n.ran);
    near.erase(std::remove_if(near.begin(), near.end(),
                              [&](const Near &n) { return 4 * n.ran < 3 * most; }),
               near.end());
    std::stable_sort(near.begin(), near.end(),
                     [](const Near &a, const Near &b) { return a.d < b.d; });
    if (near.size() > kMeasuredNeighbours) near.resize(kMeasuredNeighbours);
    // Each schedule's time over the winner's at each shape, in log, weighted by nearness.
    // (By schedule: sum w log ratio, sum w.)
    std::vector<std::pair<double, double>> score(schedules.size(), {0.0, 0.0});
    for (const Near &n : near) {
        double best = INFINITY;
        for (size_t k = 0; k < schedules.size(); k++) {
            if (!std::isnan(time(n, k))) best = std::min(best, time(n, k));
        }
        const double w = 1.0 / (n.d + 0.05);
        for (size_t k = 0; k < schedules.size(); k++) {
            if (std::isnan(time(n, k))) continue;
            score[k].first += w * std::log(time(n, k) / best);
            score[k].second += w;
        }
    }
    // Ranked by that ratio, ties in name order.
    std::vector<std::pair<double, std::string>> ranked;
    for (size_t k = 0; k < schedules.size(); k++) {
        if (score[k].second > 0)
            ranked.push_back({std::exp(score[k].first / score[k].second), schedules[k]});
    }
    std::sort(ranked.begin(), ranked.end());
    ranked.erase(std::unique(ranked.begin(), ranked.end()), ranked.end());
    // The CPU: the first strategy with no intermediate in memory, where it is within the margin.
    std::string steadier;
    if (target == "cpu" && round_trips.size() == schedules.size()) {
        auto trips = [&](const std::string &name) {
            const size_t k =
                std::find(schedules.begin(), schedules.end(), name) - schedules.begin();
            return round_trips[k];
        };
        if (trips(ranked.front().second)) {
            for (size_t i = 1; i < ranked.size() && steadier.empty(); i++) {
                if (!trips(ranked[i].second) &&
                    ranked[i].first <= ranked.front().first * kCpuRoundTripMargin)
                    steadier = ranked[i].second;
            }
        }
    }
    MeasuredPick pick;
    pick.schedule = steadier.empty() ? ranked.front().second : steadier;
    pick.distance = near.front().d;
    char text[96];
    if (radius > kMeasuredNear) {
        std::snprintf(text, sizeof(text), "nothing measured within %.0f; ", kMeasuredNear);
        pick.reason = text;
    }
    pick.reason += "measured near:";
    for (size_t i = 0; i < near.size(); i++) {
        std::snprintf(text, sizeof(text), "%s %s (%.2f away)", i ? "," : "",
                      near[i].s->size.c_str(), near[i].d);
        pick.reason += text;
    }
    pick.reason += "; time over the winner there:";
    for (size_t i = 0; i < ranked.size() && i < 4; i++) {
        std::snprintf(text, sizeof(text), "%s %s %.2fx", i ? "," : "", ranked[i].second.c_str(),
                      ranked[i].first);
        pick.reason += text;
    }
    if (!steadier.empty()) {
        std::snprintf(text, sizeof(text), "; %s: within %.2fx of ", steadier.c_str(),
                      kCpuRoundTripMargin);
        pick.reason += text + ranked.front().second +
                       " with no intermediate through memory (steadier on a shared CPU)";
    }
    return pick;
}

std::optional<MeasuredPick> pick_measured_or_twin(
    const MeasuredPipeline &p, const std::string &target, const std::string &dtype,
    const std::vector<double> &at, const std::vector<std::string> &schedules,
    const std::vector<bool> &round_trips, double radius) {
    if (auto own = pick_measured(p, target, dtype, at, schedules, "", round_trips, radius))
        return own;
    const std::string twin = dtype == "float16" ? "bfloat16" : dtype == "bfloat16" ? "float16" : "";
    if (twin.empty()) return std::nullopt;
    auto pick = pick_measured(p, target, twin, at, schedules, "", round_trips, radius);
    if (pick) pick->reason = "no " + dtype + " shape near; " + twin + "'s: " + pick->reason;
    return pick;
}

}  // namespace fuselab
