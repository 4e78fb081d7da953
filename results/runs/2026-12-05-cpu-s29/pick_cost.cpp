#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>
#include "fuselab/measured.h"
using namespace fuselab;
int main() {
    const MeasuredPipeline *p = shipped_measured("NVIDIA H200", "softmax");
    std::vector<std::string> names = {"block_row", "block_row_2k", "block_row_4k", "block_row_wide", "chunked_row",
        "staged_row_2k", "staged_row_8k", "staged_row_wide", "warp_regs_1k", "warp_row", "two_pass", "unfused", "split_row"};
    for (const char *dt : {"float32", "bfloat16"}) {
        std::vector<double> ts;
        for (int i = 0; i < 400; i++) {
            const double n = 1001 + 37 * i, m = std::max(1.0, std::min(64.0 + (i * 7) % 2000, (1 << 22) / n));
            auto t0 = std::chrono::steady_clock::now();
            auto pick = pick_measured_or_twin(*p, "cuda", dt, {n, m}, names);
            ts.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count());
            if (i == 0 && pick) std::printf("%s\n", pick->reason.substr(0, 120).c_str());
        }
        std::sort(ts.begin(), ts.end());
        std::printf("%s: pick_measured_or_twin on the H200 softmax table: median %.1f us, p90 %.1f\n", dt, ts[ts.size() / 2], ts[ts.size() * 9 / 10]);
    }
}
