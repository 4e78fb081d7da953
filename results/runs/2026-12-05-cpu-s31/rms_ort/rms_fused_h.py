# Prototype (s31): rmsnorm_residual float32 on the CPU. A: two passes a task of rows (sum of squares
# of x + residual; then h and out, recomputing x + residual), as lane_rows's long rows. H: h written in
# the first pass, fused with the sum of squares (compute_with), then out from x + residual.
import sys, time
import numpy as np
import halide as hl

def build(form, N, T=8):
    x = hl.ImageParam(hl.Float(32), 2, "x"); res = hl.ImageParam(hl.Float(32), 2, "res")
    w = hl.ImageParam(hl.Float(32), 1, "w")
    i, row = hl.Var("i"), hl.Var("row")
    hs = hl.Func("hs"); hs[i, row] = x[i, row] + res[i, row]
    r = hl.RDom([(0, N)], "r")
    ss = hl.Func("ss"); ss[row] = hl.f32(0); ss[row] += hs[r.x, row] * hs[r.x, row]
    rstd = hl.Func("rstd"); rstd[row] = 1.0 / hl.sqrt(ss[row] / N + 1e-6)
    h = hl.Func("h"); h[i, row] = hs[i, row]
    out = hl.Func("out"); out[i, row] = hs[i, row] * rstd[row] * w[i]
    t, ri = hl.Var("t"), hl.Var("ri")
    if form == "A":
        out.split(row, t, ri, T).parallel(t).vectorize(i, 16).unroll(i, 2)
        h.split(row, t, ri, T).parallel(t).vectorize(i, 16).unroll(i, 2)
        h.compute_with(out, ri)
        ss.compute_at(out, t)
        ss.update().split(r.x, hl.RVar("ro"), hl.RVar("rv"), 16).reorder(hl.RVar("rv"), hl.RVar("ro"), row)
        rv = hl.RVar("rv")
        # vectorized sum: rfactor over the lanes
        ro, rv = hl.RVar("ro2"), hl.RVar("rv2")
    else:
        # ss at root in row tasks, h fused with ss's update at the element loop
        ss.compute_root().split(row, t, ri, T).parallel(t)
        ssu = ss.update()
        ssu.split(row, t, ri, T).parallel(t)
        h.compute_root().split(row, t, ri, T).parallel(t)
        h.compute_with(ssu, r.x)
        out.split(row, t, ri, T).parallel(t).vectorize(i, 16).unroll(i, 2)
        out.compute_with(h, ri)
    out.output_buffer().dim(0).set_bounds(0, N)
    h.output_buffer().dim(0).set_bounds(0, N)
    return hl.Pipeline([h, out]), (x, res, w)

def main():
    N, M = int(sys.argv[1]), int(sys.argv[2])
    forms = sys.argv[3].split(",")
    rng = np.random.default_rng(1)
    xs = rng.uniform(-2, 2, (M, N)).astype(np.float32); rs = rng.uniform(-2, 2, (M, N)).astype(np.float32)
    ws = rng.uniform(0.5, 1.5, N).astype(np.float32)
    hh = (xs + rs).astype(np.float64); ref = hh / np.sqrt((hh * hh).mean(1, keepdims=True) + 1e-6) * ws
    fns = {}
    for f in forms:
        p, (x, res, w) = build(f, N)
        p.compile_jit(hl.get_host_target())
        x.set(hl.Buffer(xs)); res.set(hl.Buffer(rs)); w.set(hl.Buffer(ws))
        ho, oo = hl.Buffer(hl.Float(32), [N, M]), hl.Buffer(hl.Float(32), [N, M])
        p.realize([ho, oo])
        print(f, "err", np.abs(np.asarray(oo) - ref).max(), flush=True)
        fns[f] = (p, ho, oo)
    res_t = {f: [] for f in forms}
    for rep in range(7):
        for f in forms:
            p, ho, oo = fns[f]
            n = 0; t0 = time.perf_counter()
            while time.perf_counter() - t0 < 0.3:
                p.realize([ho, oo]); n += 1
            res_t[f].append((time.perf_counter() - t0) / n * 1e6)
    for f in forms:
        print(f"{f} N={N} M={M}: median {np.median(res_t[f]):.1f} us")
main()
