#include <cstdio>

#include "commands.h"
#include "fuselab/registry.h"
#include "fuselab/workloads.h"

namespace fuselab::cli {

int list_command(const ListOptions &opt) {
    if (opt.sizes) {
        for (const Variant &v : variants()) {
            if (!opt.target.empty() && opt.target != v.target) continue;
            const Workload &w = find_workload(v.pipeline);
            for (const Size &size : v.is_cuda() ? w.cuda_sizes : w.cpu_sizes) {
                std::printf("%s %s %s %s\n", v.pipeline, v.schedule, v.target,
                            format_size(size).c_str());
            }
        }
        return 0;
    }
    std::printf("%-18s %-14s %-5s %-9s %7s %7s %12s  %s\n", "pipeline", "schedule", "target",
                "kind", "kernels", "interm", "interm MB", "what it fuses");
    for (const Variant &v : variants()) {
        if (!opt.target.empty() && opt.target != v.target) continue;
        // Intermediate bytes at the target's default size, from the build-time ledger.
        const Workload &w = find_workload(v.pipeline);
        const Size size = v.is_cuda() ? w.cuda_sizes.front() : w.cpu_sizes.front();
        const int64_t bytes = intermediate_bytes_at(v, size);
        char mb[32] = "?";
        if (bytes >= 0) std::snprintf(mb, sizeof(mb), "%.1f", bytes / 1e6);
        const std::string kernels = v.kernels < 0 ? "?" : std::to_string(v.kernels);
        const std::string interm = v.intermediates < 0 ? "?" : std::to_string(v.intermediates);
        std::printf("%-18s %-14s %-5s %-9s %7s %7s %12s  %s\n", v.pipeline, v.schedule, v.target,
                    v.kind, kernels.c_str(), interm.c_str(), mb, v.summary);
    }
    return 0;
}

}  // namespace fuselab::cli
