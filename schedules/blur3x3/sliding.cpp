// sliding (CPU only): a line buffer. Each parallel task walks 64 output rows; bx rows are
// computed once each as the window slides down (store_at the strip, compute_at the row), so
// there is neither an intermediate image nor recompute, apart from 2 rows per strip.
// Measured 2026-12-01 (results/runs/2026-12-01-h200-s8, -cpu-s8): H200: not built for CUDA; 2-core
// EPYC (Zen 5): 4096x4096 3900.1 us.
// summary: line-buffered bx (sliding window): no intermediate, no recompute
// targets: cpu
#include "blur3x3.h"

namespace fuselab {

FUSELAB_SCHEDULE(Blur3x3, sliding) {
    Halide::Var yo{"yo"}, yi{"yi"};
    const int lanes = target.natural_vector_size<float>();
    g.out.split(g.y, yo, yi, 64, Halide::TailStrategy::GuardWithIf)
        .parallel(yo)
        .vectorize(g.x, lanes * 2, Halide::TailStrategy::GuardWithIf);
    g.bx.store_at(g.out, yo).compute_at(g.out, yi).vectorize(g.x, lanes,
                                                             Halide::TailStrategy::GuardWithIf);
}

}  // namespace fuselab
