// How a generator finds its fusion strategy: every file under schedules/<pipeline>/ registers
// one function under its own name, and the generator's `schedule` GeneratorParam picks it.
// The algorithm never names a strategy, so adding one is adding one file.
#pragma once

#include <map>
#include <string>

#include "Halide.h"
#include "fuselab/guarded_autoscheduler.h"

namespace fuselab {

template <typename G>
using ScheduleFn = void (*)(G &g, const Halide::Target &target);

template <typename G>
std::map<std::string, ScheduleFn<G>> &schedule_table() {
    static std::map<std::string, ScheduleFn<G>> table;
    return table;
}

template <typename G>
struct ScheduleRegistration {
    ScheduleRegistration(const char *name, ScheduleFn<G> fn) { schedule_table<G>()[name] = fn; }
};

// Called from a generator's schedule(): applies the strategy named by its `schedule` param.
template <typename G>
void apply_schedule(G &g, const std::string &name, const Halide::Target &target) {
    auto &table = schedule_table<G>();
    auto it = table.find(name);
    if (it == table.end()) {
        std::string known;
        for (const auto &kv : table) known += " " + kv.first;
        throw Halide::CompileError("unknown schedule '" + name + "'; known:" + known);
    }
    it->second(g, target);
}

}  // namespace fuselab

// FUSELAB_SCHEDULE(AddRelu, fused) { ...uses g and target... }
#define FUSELAB_SCHEDULE(Gen, name)                                                     \
    static void fuselab_schedule_##name([[maybe_unused]] Gen &g,                        \
                                        [[maybe_unused]] const Halide::Target &target); \
    static const fuselab::ScheduleRegistration<Gen> fuselab_registration_##name(        \
        #name, fuselab_schedule_##name);                                                \
    static void fuselab_schedule_##name([[maybe_unused]] Gen &g,                        \
                                        [[maybe_unused]] const Halide::Target &target)
