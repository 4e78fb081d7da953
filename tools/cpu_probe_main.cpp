// A standalone driver for bench/cpu_probe.{h,cpp}: prints this machine's copy bandwidth (each
// method) and fp32 FMA peak, then the same as one JSON line (for tools/cpu_run.py --probe). Not
// part of the build; compile it with the project's flags:
//   g++ -std=c++17 -O3 -DNDEBUG -Wall -Wextra -pthread -Ibench tools/cpu_probe_main.cpp
//       bench/cpu_probe.cpp -o /tmp/cpu_probe && /tmp/cpu_probe [threads] [MiB] [copy]
// ("copy": the copy bandwidth only, no FMA peak.)
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "cpu_probe.h"

int main(int argc, char **argv) {
    const int threads = argc > 1 ? std::atoi(argv[1]) : 0;
    const size_t mib = argc > 2 ? std::strtoul(argv[2], nullptr, 10) : 64;
    std::printf("isa %s, threads %d (0: all), buffer %zu MiB\n", fuselab::probe_isa().c_str(),
                threads, mib);
    std::vector<fuselab::CopyMethod> methods;
    const double best = fuselab::copy_bandwidth_gbs(mib << 20, threads, &methods);
    std::string json = "{\"isa\": \"" + fuselab::probe_isa() +
                       "\", \"buffer_bytes\": " + std::to_string(mib << 20) +
                       ", \"copy_methods\": [";
    for (size_t i = 0; i < methods.size(); i++) {
        const fuselab::CopyMethod &m = methods[i];
        std::printf("copy %-14s median %7.1f GB/s  best %7.1f GB/s  (%d repeats, read + written)\n",
                    m.name.c_str(), m.median_gbs, m.best_gbs, m.repeats);
        char item[200];
        std::snprintf(item, sizeof(item),
                      "%s{\"name\": \"%s\", \"median_gbs\": %.2f, \"best_gbs\": %.2f, "
                      "\"repeats\": %d}",
                      i ? ", " : "", m.name.c_str(), m.median_gbs, m.best_gbs, m.repeats);
        json += item;
    }
    const bool copy_only = argc > 3 && std::string(argv[3]) == "copy";
    const double peak = copy_only ? 0 : fuselab::fma_peak_gflops(threads);
    const double peak1 = copy_only ? 0 : fuselab::fma_peak_gflops(1);
    std::printf("copy_bandwidth_gbs  %7.1f GB/s (the best method's median above)\n", best);
    std::printf("fma_peak_gflops     %7.1f GFLOP/s\n", peak);
    std::printf("fma_peak_gflops(1)  %7.1f GFLOP/s\n", peak1);
    char tail[200];
    std::snprintf(tail, sizeof(tail),
                  "], \"copy_bandwidth_gbs\": %.2f, \"fma_peak_gflops\": %.1f, "
                  "\"fma_peak_gflops_1thread\": %.1f}",
                  best, peak, peak1);
    std::printf("%s%s\n", json.c_str(), tail);
    return 0;
}
