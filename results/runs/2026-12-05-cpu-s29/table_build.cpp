#include <chrono>
#include <cstdio>
#include "fuselab/measured.h"
int main() {
    for (const char *p : {"softmax", "rmsnorm_residual", "layernorm"}) {
        auto t0 = std::chrono::steady_clock::now();
        const fuselab::MeasuredPipeline *m = fuselab::shipped_measured("NVIDIA H200", p);
        double us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
        std::printf("%s: %zu shapes built in %.0f us\n", p, m ? m->shapes.size() : 0, us);
    }
}
