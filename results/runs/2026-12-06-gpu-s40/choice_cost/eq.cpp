#include <cstdio>
#include <random>
#include <algorithm>
#include "fuselab/measured.h"
using namespace fuselab;
int main() {
    for (std::string dev : {"NVIDIA H100 80GB HBM3", "NVIDIA H200", "AMD EPYC 9B14"})
    for (std::string pl : {"softmax", "layernorm", "rmsnorm_residual", "conv_relu_pool", "add_relu"})
    for (std::string dtype : {"float32", "bfloat16", "float16"}) {
        auto tables = shipped_measured_tables(dev, pl);
        std::vector<const MeasuredPipeline *> ps;
        for (auto &t : tables) ps.push_back(t.table);
        if (ps.empty()) continue;
        std::vector<std::string> names;
        for (auto *p : ps) for (auto &s : p->schedules) names.push_back(s);
        std::sort(names.begin(), names.end()); names.erase(std::unique(names.begin(), names.end()), names.end());
        std::mt19937 rng(7);
        for (int k = 0; k < 1500; k++) {
            std::vector<std::vector<double>> at;
            std::vector<double> v;
            for (size_t i = 0; i < ps[0]->features.size(); i++) v.push_back(std::floor(std::exp2(std::uniform_real_distribution<double>(0, 18)(rng))));
            for (auto *p : ps) at.push_back(std::vector<double>(v.begin(), v.begin() + p->features.size()));
            std::string target = dev.find("NVIDIA") == 0 ? "cuda" : "cpu";
            std::vector<bool> rt;
            if (k % 2) { for (size_t j = 0; j < names.size(); j++) rt.push_back(j % 3 == 0); }
            auto r = pick_measured_across(ps, target, dtype, at, names, rt);
            printf("%s %s %s %d: %s\n", dev.c_str(), pl.c_str(), dtype.c_str(), k, r ? (r->pick.schedule + " | " + r->pick.reason + " | " + std::to_string(r->table)).c_str() : "none");
        }
    }
}
