// warp_regs_1k: one kernel, one warp a row, 4 rows a block, the row held in registers: rows of
// at most 1024 elements (row_limit), each lane holding its 32 of them, as float32, twice (x
// widened, then x less the row's mean). So the row is read from DRAM once. The sum and the sum
// of squares: each lane's partial from its registers, then the 32 partials combined by 8
// shuffles (rows_common.h: gpu_lane_tree) inside the lanes of the one stage that reads it. No
// shared memory, no barrier (gpu_warp_regs, gpu_warp_stat_in). 1 / sqrt by the hardware's rsqrt
// once a lane (params: fast_rsqrt, generators/layernorm.h).
// Rows of any length up to 1024 run a constant form: the statistics reduce over the row padded to
// 256, 512, 768 or 1024 elements (generators/row_pad.h, params row_pad=1024), past N re-reading the
// row's last 16-byte vector (an odd row: its last element) and masked by a select, and the output
// specialized on each rung (rows_forms.h: gpu_warp_regs_rows), so every load of the row is
// unconditional; where every row is whole aligned vectors the output is cut by the vector first
// (warp_regs_output), so that its last step is one test a lane (in 16-bit, the element-by-element
// fallback of the lanes past N had been most of the kernel at N = 184: s23 d/ncu). Before (s22),
// rows other than 256, 512 and 1024 ran one general kernel with a guard an element: Nsight Compute
// on softmax bfloat16 N = 280 (results/runs/2026-12-04-h200-s23/c, results/rows_ncu.md s23): 95
// registers, 29% occupancy, compute-bound, 194 us where N = 256 took 35 (26 registers, 83%).
// Padded, the 41 table shapes of N <= 1024 in three types ran 1.94x faster, up to 6.1x at N = 184,
// (geometric mean, same session, results/runs/2026-12-04-h200-s23/f against b_unpadded; rows of 901
// in bfloat16 up to 15% slower: odd rows padded to 1024 element loads).
// Wins at N = 184 to 1024 (s23 f/short.json, 2^25 elements, copy 4.19 TB/s): float32 N = 280 3.91
// TB/s (torch.compile 3.85), 1000 3.84 (3.78), 184 3.71 (3.85); float16 736 3.45 (2.60), 1000 3.43
// (3.56); bfloat16 184 1.98 against torch.compile's 3.63, 1024 3.27 (3.53): the 16-bit rows are
// issue-bound (s17: 30 instructions an element at N = 256, top stalls not_selected and
// long_scoreboard). Longer rows are refused in words.
// targets: cuda
// row_limit: 1024 elements
// params: row_pad=1024 fast_rsqrt=true
// summary: one warp a row, 4 rows a block, rows of at most 1024 held in registers
#include "row_funcs.h"

namespace fuselab {

FUSELAB_SCHEDULE(Layernorm, warp_regs_1k) {
    using namespace rows;
    const int V = vec_elems(g.x.type()), B = 1024;
    align_buffers(g.x, g.w, g.b, g.out);
    const Expr n = g.x.dim(0).extent(), aligned = aligned_rows(V, g.x, g.out);
    const Expr padded = g.row_pad > 0 ? Expr(g.r.x.extent()) : Expr();
    const LoopLevel warp =
        gpu_warp_regs_rows(g.out, Func(), g.i, g.row, 4, V, B, n, aligned, g.row_pad);
    gpu_warp_regs(g.xf, g.i, warp, V, B, padded);
    const LoopLevel xc_lane = gpu_warp_regs(g.xc, g.i, warp, V, B, padded);
    gpu_warp_stat_in(g.sum, g.r, warp, xc_lane, g.row, V, B);
    gpu_warp_stat_in(g.sumsq, g.r, warp, gpu_warp_rows_lane(g.out, g.i), g.row, V, B);
    wide_accesses(g, target);
}

}  // namespace fuselab
