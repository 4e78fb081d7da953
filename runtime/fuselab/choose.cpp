#include "fuselab/choose.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>

#include "fuselab/device.h"
#include "fuselab/error.h"
#include "fuselab/measured.h"

namespace fuselab {

// The fits of the committed results (results/models.json), compiled in (shipped_models.cpp).
extern const char *const kShippedModels;

namespace {

using nlohmann::json;

bool env_is(const char *name, const char *value) {
    const char *v = std::getenv(name);
    return v && std::string(v) == value;
}

std::string resolve(const std::string &target) {
    if (target != "auto") return target;
    return cuda_status().usable ? "cuda" : "cpu";
}

// The first CPU's model name and flags in /proc/cpuinfo, named as measured.h's cpu_device_name.
std::string cpu_name() {
    std::ifstream in("/proc/cpuinfo");
    std::string line, model, flags;
    while (std::getline(in, line) && (model.empty() || flags.empty())) {
        const size_t colon = line.find(':');
        if (colon == std::string::npos) continue;
        const std::string value = colon + 2 <= line.size() ? line.substr(colon + 2) : "";
        if (model.empty() && line.rfind("model name", 0) == 0) model = value;
        if (flags.empty() && line.rfind("flags", 0) == 0) flags = value;
    }
    return cpu_device_name(model.empty() ? "unknown CPU" : model, flags);
}

// What a record is keyed by, besides the device: the build's variants of this pipeline (names
// and ledgers: a changed strategy is a new build), the storage type and every argument's extents.
struct Key {
    std::string device, driver, build, pipeline, target, dtype, shapes;
    json to_json() const {
        return {{"device", device}, {"driver", driver}, {"build", build},  {"pipeline", pipeline},
                {"target", target}, {"dtype", dtype},   {"shapes", shapes}};
    }
};

std::string build_id_uncached(const std::string &pipeline, const std::string &target) {
    uint64_t h = 1469598103934665603ull;  // FNV-1a over the candidates' names and ledgers
    auto mix = [&](const std::string &s) {
        for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
    };
    for (const Variant &v : variants()) {
        if (v.pipeline != pipeline || v.target != target) continue;
        mix(v.name());
        mix(std::to_string(v.kernels) + "/" + std::to_string(v.intermediates));
        for (int i = 0; i < v.num_resources; i++) mix(std::to_string(v.resources[i].registers));
    }
    char text[17];
    std::snprintf(text, sizeof(text), "%016llx", static_cast<unsigned long long>(h));
    return text;
}

// Once per (pipeline, target, registry size): hashing every variant's name was most of a new
// shape's choice (about 0.1 ms); a variant registered later makes a new key.
std::string build_id(const std::string &pipeline, const std::string &target) {
    static std::mutex m;
    static std::map<std::string, std::string> ids;
    const std::string key = pipeline + "|" + target + "|" + std::to_string(variants().size());
    std::lock_guard<std::mutex> lock(m);
    auto it = ids.find(key);
    if (it == ids.end()) it = ids.emplace(key, build_id_uncached(pipeline, target)).first;
    return it->second;
}

std::string shapes_of(const Bindings &args) {
    std::string s;
    for (const auto &[name, b] : args) {  // std::map: sorted by name
        if (!b) continue;
        s += (s.empty() ? "" : " ") + name + ":";
        for (int d = 0; d < b->dimensions; d++)
            s += (d ? "x" : "") + std::to_string(b->dim[d].extent);
        // A storage type other than float32 is part of the shape: another variant runs it.
        if (!(b->type == halide_type_t(halide_type_float, 32))) s += ":" + type_name(b->type);
    }
    return s;
}

Key key_for(const std::string &pipeline, const Bindings &args, const std::string &target,
            const Variant &any) {
    Key k;
    k.device = device_name(target);
    k.driver = target == "cuda" ? cuda_status().driver : "";
    k.build = build_id(pipeline, target);
    k.pipeline = pipeline;
    k.target = target;
    k.dtype = any.dtype;
    k.shapes = shapes_of(args);
    return k;
}

// ---- the tuning file ----

std::mutex file_mutex;  // this process's view of the file
std::mutex decisions_mutex;
std::map<std::string, Choice> decisions;

// A fuselab tuning file, every field of the type fuselab reads: a record's key an object and its
// winner a string, each model one CostModel::from_json takes.
bool well_formed(const json &doc) {
    if (!doc.is_object()) return false;
    const json version = doc.value("fuselab_tuning", json());
    if (!version.is_number_integer() || version.get<int>() != 1) return false;
    const json records = doc.value("records", json::array()),
               models = doc.value("models", json::object());
    if (!records.is_array() || !models.is_object()) return false;
    for (const json &r : records) {
        if (!r.is_object() || !r.value("key", json()).is_object() ||
            !r.value("winner", json()).is_string())
            return false;
        for (const char *text : {"summary", "date"}) {
            if (r.contains(text) && !r[text].is_string()) return false;
        }
    }
    try {
        for (const auto &[device, m] : models.items()) CostModel::from_json(m.dump());
    } catch (const Error &) {
        return false;
    }
    return true;
}

// The file, or {} when there is none; `foreign` is set when there is one fuselab cannot use.
json read_file_unlocked(const std::string &path, bool *foreign = nullptr) {
    std::ifstream in(path);
    if (!in) return json::object();
    std::stringstream text;
    text << in.rdbuf();
    json doc = json::parse(text.str(), nullptr, /*allow_exceptions=*/false);
    if (!well_formed(doc)) {
        static bool warned = false;
        if (!warned) {
            std::fprintf(stderr,
                         "fuselab: warning: ignoring the tuning file %s: it is not a fuselab "
                         "tuning file (corrupt, or another program's), so nothing is read from it "
                         "or recorded in it; delete it or set FUSELAB_TUNING_FILE\n",
                         path.c_str());
            warned = true;
        }
        if (foreign) *foreign = true;
        return json::object();
    }
    return doc;
}

// Read-modify-write under an exclusive lock on PATH.lock; the new file is renamed into place.
template <typename Change>
void update_file(Change &&change) {
    const std::string path = tuning_file();
    const size_t slash = path.rfind('/');
    if (slash != std::string::npos) {  // mkdir -p of the folder
        for (size_t i = 1; i <= slash; i++) {
            if (i == slash || path[i] == '/') mkdir(path.substr(0, i).c_str(), 0755);
        }
    }
    const int lock = open((path + ".lock").c_str(), O_CREAT | O_RDWR | O_CLOEXEC, 0644);
    if (lock < 0)
        throw Error("cannot write the tuning file " + path + ".lock: " + std::strerror(errno));
    flock(lock, LOCK_EX);
    bool foreign = false;
    json doc = read_file_unlocked(path, &foreign);
    if (foreign) {  // never overwrite a file fuselab did not write (warned above)
        flock(lock, LOCK_UN);
        close(lock);
        return;
    }
    if (doc.empty()) {  // in place: nlohmann 3.11.2's assignment of a braced list leaked (LSan)
        doc["fuselab_tuning"] = 1;
        doc["records"] = json::array();
        doc["models"] = json::object();
    }
    change(doc);
    const std::string tmp = path + ".tmp." + std::to_string(getpid());
    bool ok = false;
    {
        std::ofstream out(tmp);
        out << doc.dump(1) << "\n";
        ok = static_cast<bool>(out);
    }
    if (!ok || std::rename(tmp.c_str(), path.c_str()) != 0) {
        std::remove(tmp.c_str());
        flock(lock, LOCK_UN);
        close(lock);
        throw Error("cannot write the tuning file " + path);
    }
    flock(lock, LOCK_UN);
    close(lock);
}

// The file's contents, reread when it changed (another process tuned).
// Shared, not copied: a file of many records is read at every new shape.
std::shared_ptr<const json> tuning_doc() {
    std::lock_guard<std::mutex> lock(file_mutex);
    static const auto none = std::make_shared<const json>(json::object());
    static std::shared_ptr<const json> cached = none;
    static std::string cached_path;
    static timespec cached_mtime{};
    const std::string path = tuning_file();
    struct stat st {};
    if (stat(path.c_str(), &st) != 0) return none;
    if (path != cached_path || st.st_mtim.tv_sec != cached_mtime.tv_sec ||
        st.st_mtim.tv_nsec != cached_mtime.tv_nsec) {
        cached = std::make_shared<const json>(read_file_unlocked(path));
        cached_path = path;
        cached_mtime = st.st_mtim;
    }
    return cached;
}

const Variant *recorded_winner(const Key &k, const std::vector<const Variant *> &candidates,
                               std::string *reason) {
    const std::shared_ptr<const json> doc = tuning_doc();
    const auto records = doc->find("records");
    if (records == doc->end() || !records->is_array()) return nullptr;
    const json key = k.to_json();
    for (const json &r : *records) {
        if (!r.is_object()) continue;
        if (const auto rk = r.find("key"); rk == r.end() || *rk != key) continue;
        const std::string winner = r.value("winner", "");
        for (const Variant *v : candidates) {
            if (v->schedule != winner) continue;
            *reason = "tuned " + r.value("date", std::string("?")) + " on " + k.device + ": " +
                      r.value("summary", std::string());
            return v;
        }
    }
    return nullptr;
}

std::string now_utc() {
    const std::time_t t = std::time(nullptr);
    char text[32];
    std::strftime(text, sizeof(text), "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
    return text;
}

// ---- candidates ----

bool at_estimates(const Variant &v, const Bindings &args) {
    const halide_filter_metadata_t *md = v.metadata();
    for (int i = 0; i < md->num_arguments; i++) {
        const halide_filter_argument_t &a = md->arguments[i];
        if (a.kind != halide_argument_kind_output_buffer || !a.buffer_estimates) continue;
        const halide_buffer_t *b = args.count(a.name) ? args.at(a.name) : nullptr;
        if (!b) return false;
        for (int d = 0; d < a.dimensions && d < b->dimensions; d++) {
            const int64_t *e = a.buffer_estimates[2 * d + 1];
            if (!e || *e != b->dim[d].extent) return false;
        }
    }
    return true;
}

// Whether the model may pick the variant without measuring it: an autoscheduled one only at its
// estimates (elsewhere its tiles may not fit), and never one that takes a buffer as kernel
// parameters (it reads that buffer back to the host at every call: a wait on the stream, and no
// CUDA-graph capture). Measuring (tune) tries them all.
bool predictable(const Variant &v, const Bindings &args) {
    if (*v.autoscheduler && !at_estimates(v, args)) return false;
    return variant_limit(v) != "one_shape";
}

// The registered variants of `pipeline`, in registration order. A new shape looks at them
// several times; comparing every registered variant's pipeline name was a third of its cost.
std::vector<const Variant *> pipeline_variants(const std::string &pipeline) {
    static std::mutex m;
    static std::map<std::string, std::vector<const Variant *>> index;
    static size_t indexed = 0;
    std::lock_guard<std::mutex> lock(m);
    if (indexed != variants().size()) {  // registries are linked in before main; this is once
        index.clear();
        for (const Variant &v : variants()) index[v.pipeline].push_back(&v);
        indexed = variants().size();
    }
    auto it = index.find(pipeline);
    return it == index.end() ? std::vector<const Variant *>() : it->second;
}

// Every variant of the pipeline on the target that takes these arguments. With `all`, the
// autoscheduled ones off their estimates too (tuning finds out whether their tiles fit).
std::vector<const Variant *> candidates(const std::string &pipeline, const Bindings &args,
                                        const std::string &target, bool all) {
    std::vector<const Variant *> out;
    std::string targets;
    bool known = false;
    // The storage type of the first input (x of a row pipeline, whose type the call's storage
    // type is), else the one most arguments have: where every strategy refuses, the error of that
    // type's variant names the argument that disagrees (x bfloat16 and w float32: 'w', not 'x').
    std::map<std::string, int> types;
    for (const auto &[name, b] : args) {
        if (b) types[type_name(b->type)]++;
    }
    std::string common;
    for (const auto &[t, count] : types) {
        if (common.empty() || count > types[common]) common = t;
    }
    const std::vector<const Variant *> mine = pipeline_variants(pipeline);
    if (!mine.empty()) {
        const halide_filter_metadata_t *md = mine.front()->metadata();
        for (int i = 0; i < md->num_arguments; i++) {
            if (md->arguments[i].kind != halide_argument_kind_input_buffer) continue;
            auto it = args.find(md->arguments[i].name);
            if (it != args.end() && it->second) common = type_name(it->second->type);
            break;
        }
    }
    // A variant of another storage type than an argument's fails check() on that argument's type:
    // it is passed over without check(), whose words are built only where every strategy fails
    // (with a pipeline built in three types, most candidates at a new shape are of another type).
    auto other_type = [&](const Variant &v) {
        const halide_filter_metadata_t *md = v.metadata();
        for (int i = 0; i < md->num_arguments; i++) {
            const halide_filter_argument_t &a = md->arguments[i];
            if (a.kind == halide_argument_kind_input_scalar) continue;
            auto it = args.find(a.name);
            if (it != args.end() && it->second && !(it->second->type == a.type)) return true;
        }
        return false;
    };
    // The first variant that fails with an error, and the first of the common type that does.
    const Variant *first_bad = nullptr, *typed_bad = nullptr;
    for (const Variant *each : mine) {
        const Variant &v = *each;
        known = true;
        if (v.target != target) {
            if (targets.find(v.target) == std::string::npos) targets += std::string(" ") + v.target;
            continue;
        }
        Problem p;
        if (other_type(v) || (p = check(v, args))) {
            if (p.refusal) continue;
            if (!first_bad) first_bad = &v;
            if (!typed_bad && type_name(dtype_type(v.dtype)) == common) typed_bad = &v;
            continue;
        }
        if (!all && !predictable(v, args)) continue;
        out.push_back(&v);
    }
    if (!out.empty()) return out;
    if (!known) {
        std::string names;
        for (const Variant &v : variants()) {
            if (names.find(std::string(" ") + v.pipeline + " ") == std::string::npos)
                names += std::string(" ") + v.pipeline + " ";
        }
        throw Error("unknown pipeline '" + pipeline + "'; known:" + names);
    }
    if (const Variant *bad = typed_bad ? typed_bad : first_bad)
        throw Error(pipeline + " (every strategy): " + check(*bad, args).what);
    throw Error(pipeline + ": no strategy built for target " + target +
                (targets.empty() ? "" : " (built for:" + targets + ")"));
}

const CostModel &model_for(const std::string &device, std::string *where) {
    // Each model is made once and never changed (callers in other threads hold references): a
    // new shape costs no JSON parsing. A tuning file's fit is keyed by its text, as another
    // process may refit it.
    static std::mutex m;
    static std::map<std::string, std::pair<std::string, CostModel>> cache;  // key -> (where, model)
    static const json shipped = json::parse(kShippedModels, nullptr, false);
    std::lock_guard<std::mutex> lock(m);
    const std::shared_ptr<const json> doc = tuning_doc();
    const json fitted = doc->value("models", json::object()).value(device, json());
    if (fitted.is_object()) {
        const std::string text = fitted.dump();
        auto &entry = cache["file|" + device + "|" + text];
        if (entry.first.empty()) entry = {"fitted in " + tuning_file(), CostModel::from_json(text)};
        *where = entry.first;
        return entry.second;
    }
    auto it = cache.find("shipped|" + device);
    if (it == cache.end()) {
        std::pair<std::string, CostModel> made;
        // No fit of this very device: one of the same kind (a GPU's for a GPU, a CPU's for a
        // CPU) still ranks strategies by their launches and traffic better than no fit.
        const bool gpu = nvidia_device(device);
        if (shipped.is_object() && shipped.value(device, json()).is_object()) {
            made = {"shipped fit", CostModel::from_json(shipped[device].dump())};
        } else {
            made.first = "generic coefficients (no fit for this device: `fuselab tune` measures)";
            made.second.device = device;
            if (!gpu) {  // a CPU: cheap calls, a few tens of GB/s
                made.second.launch_us = 0.5;
                made.second.gbps = 40;
            }
            if (shipped.is_object()) {
                for (const auto &[name, fit] : shipped.items()) {
                    if (nvidia_device(name) != gpu || !fit.is_object()) continue;
                    made = {"shipped fit of " + name + ", not of this device",
                            CostModel::from_json(fit.dump())};
                    break;
                }
            }
        }
        it = cache.emplace("shipped|" + device, std::move(made)).first;
    }
    *where = it->second.first;
    return it->second.second;
}

Choice model_choice(const std::string &device, const std::vector<const Variant *> &cands,
                    const Bindings &args) {
    std::string where;
    const CostModel &model = model_for(device, &where);
    struct Ranked {
        bool unmeasured;  // only the typical efficiency: below every measured strategy
        double us;
        const Variant *v;
    };
    std::vector<Ranked> ranked;
    for (const Variant *v : cands) {
        const CostSample f = cost_features(*v, args);
        ranked.push_back({!model.measured(v->pipeline, v->schedule),
                          model.predict_us(v->pipeline, v->schedule, f.kernels, f.bytes), v});
    }
    // Ties (launch-bound shapes, where every strategy is one launch) go to the fewest kernels, then
    // the name, so that every process chooses the same.
    std::stable_sort(ranked.begin(), ranked.end(), [](const Ranked &a, const Ranked &b) {
        if (a.unmeasured != b.unmeasured) return b.unmeasured;
        if (a.us != b.us) return a.us < b.us;
        if (a.v->kernels != b.v->kernels) return a.v->kernels < b.v->kernels;
        return std::string(a.v->schedule) < b.v->schedule;
    });
    Choice c;
    c.variant = ranked.front().v;
    c.source = "model";
    char text[96];
    c.reason = "predicted (" + where + "):";
    for (size_t i = 0; i < ranked.size() && i < 4; i++) {
        std::snprintf(text, sizeof(text), " %s %.1f us%s", ranked[i].v->schedule, ranked[i].us,
                      ranked[i].unmeasured ? " (never measured)" : "");
        c.reason += (i ? "," : "") + std::string(text);
    }
    return c;
}

// The strategy the shapes measured nearest favour: on this device, else (a GPU with no table of
// its own, or none of its shapes near; a CPU that no table names) on another of its kind
// (measured.h: shipped_measured_tables, pick_measured_across).
std::optional<Choice> measured_choice(const std::string &device, const std::string &pipeline,
                                      const std::string &target, const std::string &dtype,
                                      const std::vector<const Variant *> &cands,
                                      const Bindings &args) {
    const std::vector<ShippedTable> tables = shipped_measured_tables(device, pipeline);
    if (tables.empty()) return std::nullopt;
    std::vector<std::string> names;
    std::vector<double> bytes;
    for (const Variant *v : cands) {
        names.push_back(v->schedule);
        // The bytes decide only the CPU's round-trip rule (pick_measured); a GPU skips them.
        if (target == "cpu") bytes.push_back(cost_features(*v, args).bytes);
    }
    std::vector<const MeasuredPipeline *> ps;
    std::vector<std::vector<double>> at;
    for (const ShippedTable &t : tables) {
        ps.push_back(t.table);
        at.push_back(measured_features(*t.table, args));
    }
    const auto pick = pick_measured_across(ps, target, dtype, at, names, round_trips(bytes));
    if (!pick) return std::nullopt;
    const ShippedTable &t = tables[pick->table];
    std::string where = t.source;
    if (t.device != device) where += "; measured on " + t.device + ", not this device";
    for (const Variant *v : cands) {
        if (v->schedule == pick->pick.schedule)
            return Choice{v, "measured", pick->pick.reason + " (" + where + ")"};
    }
    return std::nullopt;
}

void say(const std::string &pipeline, const Choice &c) {
    if (env_is("FUSELAB_VERBOSE", "1"))
        std::fprintf(stderr, "fuselab: %s: %s (%s) %s\n", pipeline.c_str(),
                     c.variant->name().c_str(), c.source.c_str(), c.reason.c_str());
}

}  // namespace

std::string device_name(const std::string &target) {
    if (resolve(target) == "cuda")
        return cuda_status().usable ? cuda_status().device : "no CUDA device";
    static const std::string cpu = cpu_name();
    return cpu;
}

std::string tuning_file() {
    if (const char *f = std::getenv("FUSELAB_TUNING_FILE"); f && *f) return f;
    if (const char *x = std::getenv("XDG_CACHE_HOME"); x && *x)
        return std::string(x) + "/fuselab/tuning.json";
    const char *home = std::getenv("HOME");
    return std::string(home && *home ? home : "/tmp") + "/.cache/fuselab/tuning.json";
}

CostSample cost_features(const Variant &v, const Bindings &args) {
    CostSample s;
    s.pipeline = v.pipeline;
    s.schedule = v.schedule;
    s.kernels = v.kernels > 0 ? v.kernels : 1;
    for (const auto &[name, b] : args) {
        if (!b) continue;
        double n = b->type.bytes();
        for (int d = 0; d < b->dimensions; d++) n *= b->dim[d].extent;
        s.bytes += n;
    }
    const int64_t interm = intermediate_bytes(v, args);
    if (interm > 0) s.bytes += 2.0 * interm;
    return s;
}

Choice choose(const std::string &pipeline, const Bindings &args, const ChooseOptions &opt) {
    const std::string target = resolve(opt.target);
    const bool tune_now = opt.tune || env_is("FUSELAB_TUNE", "1");
    // This process's decisions, by pipeline, target and shapes: a call costs one lookup.
    const std::string memo =
        pipeline + "|" + target + "|" + shapes_of(args) + (tune_now ? "|t" : "");
    {
        std::lock_guard<std::mutex> lock(decisions_mutex);
        if (auto it = decisions.find(memo); it != decisions.end()) return it->second;
    }
    // Any strategy a record names (it ran at these shapes when it was measured); the model's
    // pick among those it can predict, or among all where it can predict none.
    const std::vector<const Variant *> all = candidates(pipeline, args, target, true);
    std::vector<const Variant *> predicted;
    for (const Variant *v : all) {
        if (predictable(*v, args)) predicted.push_back(v);
    }
    if (predicted.empty()) predicted = all;
    Choice c;
    if (all.size() == 1 && !tune_now) {
        c = {all.front(), "only", "the one strategy that takes these arguments"};
    } else {
        const Key k = key_for(pipeline, args, target, *all.front());
        c.variant = recorded_winner(k, all, &c.reason);  // a record is reused, never re-timed
        if (c.variant) {
            c.source = "tuned";
        } else if (tune_now) {
            return tune(pipeline, args, target);
        } else if (auto m = measured_choice(k.device, pipeline, target, k.dtype, predicted, args)) {
            c = *m;
        } else {
            c = model_choice(k.device, predicted, args);
        }
    }
    say(pipeline, c);
    std::lock_guard<std::mutex> lock(decisions_mutex);
    decisions[memo] = c;
    return c;
}

Choice invoke(const std::string &pipeline, const Bindings &args, CudaStream stream,
              const ChooseOptions &opt) {
    const Choice c = choose(pipeline, args, opt);
    invoke(*c.variant, args, stream);
    return c;
}

Choice tune(const std::string &pipeline, const Bindings &args, const std::string &target_in,
            const TimingOptions &timing) {
    const std::string target = resolve(target_in);
    const std::vector<const Variant *> cands = candidates(pipeline, args, target, true);
    std::vector<std::pair<double, const Variant *>> times;
    std::string refused;
    for (const Variant *v : cands) {
        try {
            times.push_back({time_variant(*v, args, timing).median_us(), v});
        } catch (const Refusal &) {
            refused += std::string(refused.empty() ? "" : ", ") + v->schedule;
        }
    }
    if (times.empty())
        throw Error(pipeline + ": every strategy refused these arguments (" + refused + ")");
    std::stable_sort(times.begin(), times.end(),
                     [](const auto &a, const auto &b) { return a.first < b.first; });
    json per = json::object();
    std::string summary;
    char text[64];
    for (size_t i = 0; i < times.size(); i++) {
        per[times[i].second->schedule] = times[i].first;
        if (i < 4) {
            std::snprintf(text, sizeof(text), "%s%s %.1f us", i ? ", " : "",
                          times[i].second->schedule, times[i].first);
            summary += text;
        }
    }
    if (!refused.empty()) summary += "; refused: " + refused;
    const Key k = key_for(pipeline, args, target, *cands.front());
    const std::string winner = times.front().second->schedule;
    {
        std::lock_guard<std::mutex> lock(file_mutex);
        update_file([&](json &doc) {
            json &records = doc["records"];
            json kept = json::array();
            for (const json &r : records) {
                if (!(r.is_object() && r.value("key", json()) == k.to_json())) kept.push_back(r);
            }
            kept.push_back({{"key", k.to_json()},
                            {"winner", winner},
                            {"times_us", per},
                            {"summary", summary},
                            {"date", now_utc()}});
            records = kept;
        });
    }
    Choice c{times.front().second, "tuned now", "measured: " + summary};
    say(pipeline, c);
    std::lock_guard<std::mutex> lock(decisions_mutex);
    for (const char *suffix : {"", "|t"})
        decisions[pipeline + "|" + target + "|" + shapes_of(args) + suffix] = c;
    return c;
}

void record_model(const CostModel &model) {
    std::lock_guard<std::mutex> lock(file_mutex);
    update_file([&](json &doc) { doc["models"][model.device] = json::parse(model.to_json()); });
}

// ---- the cost model ----

double CostModel::predict_us(const std::string &pipeline, const std::string &schedule, int kernels,
                             double bytes) const {
    double e = 1;  // a strategy never measured anywhere: the pipeline's typical one, or all's
    for (const std::string &k :
         {pipeline + "/" + schedule, "*/" + schedule, pipeline + "/*", std::string("*")}) {
        if (auto it = efficiency.find(k); it != efficiency.end()) {
            e = it->second;
            break;
        }
    }
    return std::max(kernels, 1) * launch_us + e * bytes / (gbps * 1e3);
}

bool CostModel::measured(const std::string &pipeline, const std::string &schedule) const {
    return efficiency.count(pipeline + "/" + schedule) || efficiency.count("*/" + schedule);
}

CostModel CostModel::fit(const std::string &device, const std::vector<CostSample> &samples) {
    CostModel m;
    m.device = device;
    if (samples.empty()) return m;
    // The ceiling: the best bandwidth any call reached. The launch cost: the least time per
    // kernel of any call (the seed's §1.5 cost of an empty launch bounds it from above).
    double best = 0, least = INFINITY;
    for (const CostSample &s : samples) {
        if (s.us <= 0) continue;
        best = std::max(best, s.bytes / (s.us * 1e3));
        least = std::min(least, s.us / std::max(s.kernels, 1));
    }
    if (best > 0) m.gbps = best;
    if (std::isfinite(least)) m.launch_us = least;
    // Each strategy's distance from the ceiling: a geometric mean over its calls, each weighted by
    // how far its traffic outweighs ten launches (a call that moves little says little of it),
    // shrunk toward what is known more widely: "pipeline/schedule" toward "*/schedule" (the
    // schedule in every pipeline), else "pipeline/*", else "*" (everything).
    std::map<std::string, std::pair<double, double>> logs;  // sum of w log e, sum of w
    for (const CostSample &s : samples) {
        const double traffic_us = s.bytes / (m.gbps * 1e3);
        if (s.us <= 0 || traffic_us <= 0) continue;
        const double e = std::max(1.0, (s.us - std::max(s.kernels, 1) * m.launch_us) / traffic_us);
        const double w = traffic_us / (traffic_us + 10 * m.launch_us) + 1e-6;
        for (const std::string &k : {s.pipeline + "/" + s.schedule, "*/" + s.schedule,
                                     s.pipeline + "/*", std::string("*")}) {
            logs[k].first += w * std::log(e);
            logs[k].second += w;
        }
    }
    constexpr double kPrior = 0.5;  // the weight of the wider estimate: half a bandwidth-bound call
    auto shrunk = [&](const std::string &k, double prior_log) {
        const auto &[sum, weight] = logs[k];
        return (sum + kPrior * prior_log) / (weight + kPrior);
    };
    const double all = logs.count("*") ? logs["*"].first / logs["*"].second : 0;
    m.efficiency["*"] = std::exp(all);
    for (const auto &[k, v] : logs) {
        if (k == "*" || k.rfind("*/", 0) == 0 || k.size() < 2 || k.substr(k.size() - 2) == "/*")
            continue;
        const std::string pipeline = k.substr(0, k.find('/')), schedule = k.substr(k.find('/') + 1);
        const double pipeline_log =
            logs.count(pipeline + "/*") ? shrunk(pipeline + "/*", all) : all;
        const double schedule_log = shrunk("*/" + schedule, pipeline_log);
        m.efficiency[k] = std::exp(shrunk(k, schedule_log));
        m.efficiency["*/" + schedule] = std::exp(shrunk("*/" + schedule, all));
        m.efficiency[pipeline + "/*"] = std::exp(pipeline_log);
    }
    return m;
}

std::string CostModel::to_json() const {
    return json{
        {"device", device}, {"launch_us", launch_us}, {"gbps", gbps}, {"efficiency", efficiency}}
        .dump(1);
}

CostModel CostModel::from_json(const std::string &text) {
    const json j = json::parse(text, nullptr, false);
    if (!j.is_object()) throw Error("a cost model must be a JSON object");
    CostModel m;
    try {
        m.device = j.value("device", std::string());
        m.launch_us = j.value("launch_us", m.launch_us);
        m.gbps = j.value("gbps", m.gbps);
        m.efficiency = j.value("efficiency", std::map<std::string, double>());
    } catch (const json::exception &e) {
        throw Error(std::string("a malformed cost model: ") + e.what());
    }
    if (!(m.launch_us >= 0) || !(m.gbps > 0))
        throw Error("a cost model needs launch_us >= 0 and gbps > 0");
    return m;
}

}  // namespace fuselab
