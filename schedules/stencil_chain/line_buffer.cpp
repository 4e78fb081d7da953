// line_buffer: all K stages in one kernel that reads its input once (image::register_line_buffer):
// each CUDA thread walks a strip of 4 columns x 32 rows down y, every intermediate stage keeping
// its last two rows (4 + K - i floats each) in registers, so each stage value is computed once and
// each input row is loaded once per strip, as 16-byte vectors where the row stride is a multiple of
// 4 (K = 4, 8 at 8192: 8196 and 8200) and 8-byte ones otherwise (K = 2: 8194). 64 threads a block.
// 1 kernel, no intermediate; the only extra work is the strip's halo: K input rows and stage rows
// re-read and recomputed per 32 rows, and K input columns per 4 (from L1). ptxas (sm_90,
// 128-register cap), the default-size kernel: K = 2: 80 registers, K = 4: 116, K = 8: 128, no
// spills, no stack; 12 / 24 / 64 SASS instructions an output (K = 8: about 240 FFMA/FADD/FMUL a row
// of 4 outputs, 60 stage values at 4 each, and 3 LDG.E.128 a row). Stores are 4-byte (a 4-float
// vector store would read the last stage at shifted columns, which keeps it out of registers). CPU:
// the same strips, serial inside parallel bands of 32 rows.
// Measured 2026-12-01 (results/runs/2026-12-01-h200-s8, -cpu-s8): H200: k2 8192x8192 186.2 us, k4
// 8192x8192 159.4 us, k8 8192x8192 207.2 us; 2-core EPYC (Zen 5): k2 4096x4096 13.1 ms, k4
// 4096x4096 15.2 ms, k8 4096x4096 56.7 ms.
// summary: register line buffer: one kernel, 4 x 32 outputs a thread, stage rows in registers
#include "image_common.h"
#include "stencil_chain.h"

namespace fuselab {

FUSELAB_SCHEDULE(StencilChain, line_buffer) {
    const int K = static_cast<int>(g.s.size()) - 1;
    image::register_line_buffer(g.out, g.x, g.y, g.in, {g.s.begin() + 1, g.s.end() - 1}, K, target,
                                {/*cols=*/4, /*rows=*/32, /*threads=*/64});
}

}  // namespace fuselab
