#include <chrono>
#include <cstdio>
#include <random>
#include <algorithm>
#include "fuselab/measured.h"
using namespace fuselab;
int main(int argc, char **argv) {
    std::string dev = argc > 1 ? argv[1] : "NVIDIA H100 80GB HBM3";
    std::string dtype = argc > 2 ? argv[2] : "bfloat16";
    auto tables = shipped_measured_tables(dev, "softmax");
    std::vector<const MeasuredPipeline *> ps;
    for (auto &t : tables) ps.push_back(t.table);
    printf("%zu tables;", ps.size());
    for (auto *p : ps) printf(" %zu shapes %zu features (%s %d);", p->shapes.size(), p->features.size(), p->features[0].arg.c_str(), p->features[0].dim);
    printf("\n");
    std::vector<std::string> names = {"adjacent_warp","block_row","block_row_2k","block_row_4k","block_row_wide","chunked_row","staged_row_2k","staged_row_8k","staged_row_wide","two_pass","unfused","warp_regs_1k","warp_row","auto"};
    std::sort(names.begin(), names.end());
    std::mt19937 rng(1);
    std::vector<double> samples;
    for (int k = 0; k < 20000; k++) {
        double n = std::floor(std::exp2(std::uniform_real_distribution<double>(8, 17)(rng)));
        double m = std::floor(std::exp2(std::uniform_real_distribution<double>(4, 16)(rng)));
        std::vector<std::vector<double>> at;
        for (auto *p : ps) {
            std::vector<double> a;
            for (auto &f : p->features) a.push_back(f.dim == 0 ? n : m);
            at.push_back(a);
        }
        auto t0 = std::chrono::steady_clock::now();
        auto r = pick_measured_across(ps, "cuda", dtype, at, names, {});
        samples.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count());
        if (k < 3 && r) printf("%g x %g -> %s\n", n, m, r->pick.schedule.c_str());
    }
    std::sort(samples.begin(), samples.end());
    printf("median %.2f us, p90 %.2f\n", samples[10000], samples[18000]);
}
