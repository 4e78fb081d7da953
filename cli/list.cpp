// `fuselab list`: every registered variant with its ledger: kernels per call, intermediates and
// their bytes at the default size, and for CUDA kernels ptxas's registers, spills and shared
// memory per block (seed §1.6: what over-fusion costs).
#include <algorithm>
#include <cstdio>
#include <iostream>

#include "commands.h"
#include "fuselab/describe.h"
#include "fuselab/invoke.h"
#include "fuselab/registry.h"
#include "fuselab/workloads.h"

namespace fuselab::cli {
namespace {

Size default_size(const Variant &v) {
    const Workload &w = find_workload(v.pipeline);
    return v.is_cuda() ? w.cuda_sizes.front() : w.cpu_sizes.front();
}

// "128" (the largest of the variant's kernels), "-" (no CUDA kernels), "?" (not known).
std::string registers(const Variant &v) {
    if (!v.is_cuda()) return "-";
    if (!v.resources) return "?";
    int most = 0;
    for (int i = 0; i < v.num_resources; i++) most = std::max(most, v.resources[i].registers);
    return std::to_string(most);
}

std::string spills(const Variant &v) {
    if (!v.is_cuda()) return "-";
    if (!v.resources) return "?";
    int bytes = 0;
    for (int i = 0; i < v.num_resources; i++)
        bytes += v.resources[i].spill_store_bytes + v.resources[i].spill_load_bytes;
    return std::to_string(bytes);
}

// Shared memory per block of the variant's largest user; "launch" where Halide sizes it at launch.
std::string shared(const Variant &v) {
    if (!v.is_cuda()) return "-";
    if (!v.resources) return "?";
    int most = 0;
    for (int i = 0; i < v.num_resources; i++) {
        if (v.resources[i].shared_bytes < 0) return "launch";
        most = std::max(most, v.resources[i].shared_bytes);
    }
    return std::to_string(most);
}

}  // namespace

int list_command(const ListOptions &opt) {
    auto shown = [&](const Variant &v) { return opt.target.empty() || opt.target == v.target; };
    if (opt.sizes) {
        for (const Variant &v : variants()) {
            if (!shown(v)) continue;
            const Workload &w = find_workload(v.pipeline);
            for (const Size &size : v.is_cuda() ? w.cuda_sizes : w.cpu_sizes) {
                std::printf("%s %s %s %s %s\n", v.pipeline, v.schedule, v.target,
                            format_size(size).c_str(), v.dtype);
            }
        }
        return 0;
    }
    if (opt.json) {
        std::cout << variants_json(opt.target) << "\n";
        return 0;
    }
    std::printf("%-18s %-20s %-5s %-8s %-9s %7s %7s %10s %5s %7s %7s  %s\n", "pipeline",
                "schedule", "target", "dtype", "kind", "kernels", "interm", "interm MB", "regs",
                "spill B", "smem B", "what it fuses");
    for (const Variant &v : variants()) {
        if (!shown(v)) continue;
        // Intermediate bytes at the target's default size, from the build-time ledger.
        const int64_t bytes = intermediate_bytes_at(v, default_size(v));
        char mb[32] = "?";
        if (bytes >= 0) std::snprintf(mb, sizeof(mb), "%.1f", bytes / 1e6);
        const std::string kernels = v.kernels < 0 ? "?" : std::to_string(v.kernels);
        const std::string interm = v.intermediates < 0 ? "?" : std::to_string(v.intermediates);
        std::printf("%-18s %-20s %-5s %-8s %-9s %7s %7s %10s %5s %7s %7s  %s\n", v.pipeline,
                    v.schedule, v.target, v.dtype, v.kind, kernels.c_str(), interm.c_str(), mb,
                    registers(v).c_str(), spills(v).c_str(), shared(v).c_str(), v.summary);
    }
    std::fprintf(
        stderr,
        "\nregs, spill B, smem B: ptxas -arch=sm_90 under the runtime's 128-register cap, for "
        "the variant's\n  largest kernel (spills summed over its kernels); smem \"launch\": sized "
        "by Halide at each launch (bench --cupti measures it).\n");
    return 0;
}

}  // namespace fuselab::cli
