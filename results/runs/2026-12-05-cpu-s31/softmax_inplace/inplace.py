# Prototype (s31): softmax float32 on the CPU, rows of N (a multiple of 64), two forms with the same
# exponential (Halide's exp): B, block_row's pass structure (max; exp to a row scratch with the sum;
# out = scratch * inv), and C, "in place": exp(x - max) stored straight into out (the stores' misses
# under the exponential's arithmetic, as ONNX Runtime's MLAS does), 64 partial sums folded into
# out's first 64 elements, then out scaled in place; every stage of out fused per row (compute_with).
import sys, time
import numpy as np
import halide as hl

def build(form, N, L=64):
    x = hl.ImageParam(hl.Float(32), 2, "x")
    i, row, u = hl.Var("i"), hl.Var("row"), hl.Var("u")
    ro = hl.RDom([(0, N // L)], "ro")
    pm = hl.Func("pm"); mx = hl.Func("mx")
    pm[u, row] = hl.f32(-np.inf)
    pm[u, row] = hl.max(pm[u, row], x[ro.x * L + u, row])
    k = hl.RDom([(0, L)], "k")
    mx[row] = hl.maximum(pm[k, row])
    rb, ri = hl.Var("rb"), hl.Var("ri")
    if form == "B":
        ex = hl.Func("ex"); ps = hl.Func("ps"); sm = hl.Func("sm"); out = hl.Func("out")
        ex[i, row] = hl.exp(x[i, row] - mx[row])
        ps[u, row] = hl.f32(0)
        ps[u, row] += ex[ro.x * L + u, row]
        sm[row] = hl.sum(ps[k, row])
        out[i, row] = ex[i, row] * (1.0 / sm[row])
        out.split(row, rb, ri, 8).parallel(rb).vectorize(i, 16).unroll(i, 4)
        mx.compute_at(out, ri)
        pm.compute_at(out, ri).vectorize(u, 16)
        pm.update().reorder(u, ro.x).vectorize(u, 16).unroll(u, 4)
        ex.compute_at(out, ri).store_at(out, rb).vectorize(i, 16).unroll(i, 2)
        ps.compute_at(out, ri).vectorize(u, 16)
        ps.update().reorder(u, ro.x).vectorize(u, 16).unroll(u, 4)
        sm.compute_at(out, ri)
        out.output_buffer().dim(0).set_bounds(0, N)
        return out, x
    y = hl.Func("y")
    y[i, row] = hl.exp(x[i, row] - mx[row])
    r1 = hl.RDom([(0, L), (0, N // L - 1)], "r1")
    y[r1.x, row] = y[r1.x, row] + y[L + r1.y * L + r1.x, row]
    tot = y[0, row]
    for q in range(1, L):
        tot = tot + y[q, row]
    y[0, row] = tot
    r3 = hl.RDom([(L, N - L)], "r3")
    y[r3.x, row] = y[r3.x, row] * (1.0 / y[0, row])
    r4 = hl.RDom([(0, L)], "r4")
    q4 = L - 1 - r4.x
    y[q4, row] = hl.exp(x[q4, row] - mx[row]) * (1.0 / y[0, row])
    y.split(row, rb, ri, 8).parallel(rb).vectorize(i, 16).unroll(i, 4)
    s1 = y.update(0); s1.split(row, rb, ri, 8).parallel(rb).reorder(r1.x, r1.y, ri, rb).vectorize(r1.x, 16).unroll(r1.x, 4)
    s2 = y.update(1); s2.split(row, rb, ri, 8).parallel(rb)
    s3 = y.update(2); s3.split(row, rb, ri, 8).parallel(rb).vectorize(r3.x, 16).unroll(r3.x, 4)
    s4 = y.update(3); s4.split(row, rb, ri, 8).parallel(rb)
    s1.compute_with(y, ri); s2.compute_with(s1, ri); s3.compute_with(s2, ri); s4.compute_with(s3, ri)
    mx.compute_at(y, ri)
    pm.compute_at(y, ri).vectorize(u, 16)
    pm.update().reorder(u, ro.x).vectorize(u, 16).unroll(u, 4)
    y.output_buffer().dim(0).set_bounds(0, N)
    return y, x

def main():
    N, M = int(sys.argv[1]), int(sys.argv[2])
    forms = sys.argv[3].split(",") if len(sys.argv) > 3 else ["B", "C"]
    t = hl.get_host_target()
    rng = np.random.default_rng(1)
    xs = rng.uniform(-4, 4, (M, N)).astype(np.float32)
    ref = np.exp(xs - xs.max(1, keepdims=True)); ref /= ref.sum(1, keepdims=True)
    xb = hl.Buffer(xs)
    fns = {}
    for f in forms:
        out, x = build(f, N)
        p = hl.Pipeline(out)
        p.compile_jit(t)
        o = hl.Buffer(hl.Float(32), [N, M])
        x.set(xb)
        fns[f] = (p, x, o)
        p.realize(o)
        err = np.abs(np.asarray(o) - ref).max() / ref.max()
        print(f, "max rel err", err, flush=True)
    res = {f: [] for f in forms}
    for rep in range(7):
        for f in forms:
            p, x, o = fns[f]
            x.set(xb)
            n = 0; t0 = time.perf_counter()
            while time.perf_counter() - t0 < 0.3:
                p.realize(o); n += 1
            res[f].append((time.perf_counter() - t0) / n * 1e6)
    for f in forms:
        print(f"{f} N={N} M={M}: median {np.median(res[f]):.1f} us")

main()
