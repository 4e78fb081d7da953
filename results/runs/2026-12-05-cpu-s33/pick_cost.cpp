#include <chrono>
#include <cstdio>
#include <cstdlib>
#include "fuselab/measured.h"
using namespace fuselab;
int main() {
    for (const char *dev : {"NVIDIA H200", "NVIDIA H100 80GB HBM3"}) {
        auto tables = shipped_measured_tables(dev, "softmax");
        std::vector<const MeasuredPipeline *> ps;
        for (auto &t : tables) ps.push_back(t.table);
        std::vector<std::string> names = {"block_row","block_row_2k","block_row_4k","block_row_wide","chunked_row","staged_row_2k","staged_row_8k","staged_row_wide","warp_regs_1k","warp_row","adjacent_warp","two_pass","unfused"};
        double total = 0; int n_calls = 2000;
        for (int i = 0; i < n_calls; i++) {
            const int n = 1001 + 37 * (i % 200), m = std::max(1, std::min(64 + (i * 7) % 2000, (1 << 22) / n));
            std::vector<std::vector<double>> at;
            for (auto *p : ps) { std::vector<double> a; for (auto &f : p->features) a.push_back(f.dim == 0 ? n : f.dim == 1 ? m : double(n) * m); at.push_back(a); }
            auto t0 = std::chrono::steady_clock::now();
            auto pick = pick_measured_across(ps, "cuda", "float32", at, names, {});
            total += std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
            if (!pick) std::printf("none\n");
        }
        std::printf("%s: %zu tables, shapes %zu; pick_measured_across %.2f us a call\n", dev, ps.size(), ps[0]->shapes.size(), total / n_calls);
    }
}
