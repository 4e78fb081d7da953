#include <cstdio>
#include <fstream>
#include <sstream>
#include <cmath>
#include <map>
#include "fuselab/measured.h"
using namespace fuselab;
int main(int argc, char **argv) {
    std::ifstream in(argv[1]); std::stringstream ss; ss << in.rdbuf();
    auto tables = measured_from_json(ss.str());
    std::ifstream cs(argv[2]); std::string line; int within = 0, total = 0; double lg = 0, worst = 0;
    while (std::getline(cs, line)) {
        std::istringstream ls(line); std::string w, d; double n, m; ls >> w >> d >> n >> m;
        std::map<std::string, double> t; std::string kv;
        while (ls >> kv) { auto e = kv.find('='); t[kv.substr(0, e)] = std::stod(kv.substr(e + 1)); }
        std::vector<std::string> names; double best = 1e30;
        for (auto &[s, u] : t) { names.push_back(s); best = std::min(best, u); }
        std::vector<const MeasuredPipeline *> ps; std::vector<std::vector<double>> at;
        for (const char *dev : {"NVIDIA H100 80GB HBM3", "NVIDIA H200"}) {
            auto it = tables.find(dev); if (it == tables.end()) continue;
            auto pit = it->second.pipelines.find(w); if (pit == it->second.pipelines.end()) continue;
            index_measured(pit->second);
            ps.push_back(&pit->second);
            std::vector<double> a; for (auto &f : pit->second.features) a.push_back(f.dim == 0 ? n : m); at.push_back(a);
        }
        auto r = pick_measured_across(ps, "cuda", d, at, names, {});
        double reg = r && t.count(r->pick.schedule) ? t[r->pick.schedule] / best : NAN;
        total++; if (reg <= 1.10) within++; if (reg == reg) { lg += std::log(reg); worst = std::max(worst, reg); }
        if (argc > 3) printf("%s %s %g %s %.2f\n", w.c_str(), d.c_str(), n, r ? r->pick.schedule.c_str() : "none", reg);
    }
    printf("%d of %d within 1.10x, gm %.3f, worst %.2f\n", within, total, std::exp(lg / total), worst);
}
