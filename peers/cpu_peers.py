#!/usr/bin/env python3
"""CPU peers of fuselab's workloads: numpy, numexpr, onnxruntime and OpenCV on the same inputs.

    python3 peers/cpu_peers.py --dir DIR --workload W --size S [--budget SECONDS] [--threads N]
                               [--peers numpy,numexpr,...]

DIR holds each input of workload W as DIR/<arg>.npy (the argument names of runtime/workloads/:
add_relu a, b; pointwise_chain x; branches x; branches_indep x, y; conv_relu_pool input, weights,
bias; blur3x3 and stencil_chain_kK in), float32 in numpy C order: a Halide (x, y, c) buffer is a
numpy (c, y, x) array, conv weights are (K, C, 3, 3), blur3x3's `in` is (H+2, W+2) and
stencil_chain_kK's (H+K, W+K). S is fuselab's size string: N (16777216), WxH (4096x4096, the
output's) or WxHxCxK (1920x1080x3x16).

The row reductions (issue 23; peers/rowmath.py has their math): softmax x; rmsnorm_residual x,
residual, w; layernorm x, w, b; S is NxM (row length first), x and residual are numpy (M, N), w
and b (N,). Their inputs come in one storage type, read from the files: float32 `<f4`, float16
`<f2`, bfloat16 `<u2` holding the bits (--dtype, where given, must agree), and the outputs are
written in the same type (out; rmsnorm_residual also h, the residual sum x + residual).

Run it with the project's .venv/bin/python (requirements.txt pins the peers); a Python without
numpy gets one error line a peer. A peer whose package is missing gets its own error line.

For every peer that implements W, the script computes the same math (shared/WORKLOADS.md) on the
same data, writes each output as DIR/<peer>.<output>.npy (out; out1, out2) and prints one JSON
object per line on stdout:
    {"name", "median_us", "min_us", "repeats", "calls_per_repeat", "threads", "note"}
or {"name", "error"} where a peer fails. Nothing else goes to stdout.

Timing is fuselab's CPU host measure (runtime/fuselab/timing.cpp): back-to-back calls in
batches, the batch size grown until one batch lasts at least 20 ms (those batches are the
warm-up), then batches until at least 5 are done and the budget (default 0.5 s a peer) is spent,
at most 100; median_us and min_us are per call over the batches. Every call writes into buffers
allocated once, where the peer lets it (numpy's eager form allocates per operator: that is how it
runs).

Peers of the row reductions: numpy (vectorized, one thread: float32 math over whole arrays into
buffers allocated once, bfloat16 widened from and rounded to its bits with integer operations,
float16 through numpy's casts) and onnxruntime (Softmax opset 13 axis -1; LayerNormalization
opset 17, stash_type 1; com.microsoft SkipSimplifiedLayerNormalization for rmsnorm_residual, its
fourth output, the input + skip sum, requested as h; the weights as initializers; inputs and
outputs bound once as OrtValues over the script's own buffers). Where the CPU provider has no
kernel for the type (bfloat16 Softmax), the line is {"name", "error", "refused": true}.

Peers:
- numpy: eager, one pass per operator as the seed writes them (sigmoid is 1 / (1 + exp(-v)):
  four passes), elementwise on one thread; conv_relu_pool as im2col + matmul (numpy's BLAS,
  OPENBLAS_NUM_THREADS = --threads), then relu, then the 2x2 pool.
- numexpr: each output one fused elementwise evaluate (constants passed as float32, so nothing
  is computed in float64), on --threads threads; blur3x3 and stencil_chain as one evaluate per
  pass over shifted views.
- onnxruntime: the CPU provider, every graph optimization on (ORT_ENABLE_ALL), --threads
  intra-op threads, inputs and preallocated outputs bound once (IOBinding). conv_relu_pool is
  Conv(pads 1) -> Relu -> MaxPool(2, stride 2) with the weights and bias as initializers (what a
  deployed model has); the elementwise workloads their operators (Sigmoid as one node); blur3x3
  an AveragePool 3x3, stride 1 (the same sum / 9), stencil_chain K AveragePool 2x2.
- opencv: blur3x3 as cv2.blur (3x3 box, normalized) on the whole (H+2) x (W+2) input, of which
  the valid W x H region is the output (border pixels are computed and dropped); stencil_chain
  as K cv2.boxFilter 2x2 passes anchored at (0, 0), keeping the valid region; add_relu as
  cv2.add then cv2.max with 0; conv_relu_pool through OpenCV's DNN module (the same ONNX graph,
  its CPU backend). cv2.setNumThreads(--threads).
"""
import argparse
import json
import math
import os
import sys
import tempfile
import time
import traceback


def default_threads():
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


def parse_args(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--dir", required=True, help="the folder with the inputs; outputs go there")
    ap.add_argument("--workload", required=True)
    ap.add_argument("--size", required=True, help="fuselab's size string: N, WxH or WxHxCxK")
    ap.add_argument("--budget", type=float, default=0.5, help="seconds of timed batches a peer")
    ap.add_argument("--threads", type=int, default=default_threads(),
                    help="threads for the peers that take a count (default: this process's CPUs)")
    ap.add_argument("--peers", default="", help="comma-separated subset of peers to run")
    ap.add_argument("--dtype", choices=["float32", "bfloat16", "float16"],
                    help="row reductions: the storage type the inputs must be in (default: theirs)")
    return ap.parse_args(argv)


ARGS = parse_args(sys.argv[1:])
# Before numpy loads its BLAS: the conv's matmul uses the same threads as the other peers.
os.environ.setdefault("OPENBLAS_NUM_THREADS", str(ARGS.threads))
os.environ.setdefault("OMP_NUM_THREADS", str(ARGS.threads))

PEER_NAMES = ["numpy", "numexpr", "onnxruntime", "opencv"]
try:
    import numpy as np  # noqa: E402
except ImportError as e:  # a Python without numpy (not the project's .venv): every peer says so
    for _name in PEER_NAMES:
        print(json.dumps({"name": _name, "error": f"numpy is not importable by {sys.executable}: {e} "
                          "(run this script with the project's .venv/bin/python)"}), flush=True)
    sys.exit(0)

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import rowmath  # noqa: E402  (peers/rowmath.py, beside this script: the row reductions)

F32 = np.float32
MIN_BATCH_S = 20e-3
MIN_REPEATS = 5
MAX_REPEATS = 100
MAX_CALLS = 1 << 24


def time_host(call, budget_s):
    """fuselab's host measure: (median_s, min_s, repeats, calls_per_batch) per call."""

    def batch(calls):
        t0 = time.perf_counter()
        for _ in range(calls):
            call()
        return (time.perf_counter() - t0) / calls

    calls = 1
    while True:  # sizing batches: the warm-up
        per_call = batch(calls)
        if per_call * calls >= MIN_BATCH_S or calls >= MAX_CALLS:
            break
        wanted = math.ceil(1.1 * MIN_BATCH_S / max(per_call, 1e-9))
        calls = int(min(MAX_CALLS, max(calls + 1, wanted)))
    samples = []
    t0 = time.perf_counter()
    while len(samples) < MIN_REPEATS or (time.perf_counter() - t0 < budget_s and len(samples) < MAX_REPEATS):
        samples.append(batch(calls))
    samples.sort()
    n = len(samples)
    median = samples[n // 2] if n % 2 else (samples[n // 2 - 1] + samples[n // 2]) / 2
    return median, samples[0], n, calls


# --- workloads: argument names, size parsing, shapes ------------------------------------------

INPUTS = {
    "add_relu": ["a", "b"],
    "pointwise_chain": ["x"],
    "branches": ["x"],
    "branches_indep": ["x", "y"],
    "conv_relu_pool": ["input", "weights", "bias"],
    "blur3x3": ["in"],
    "stencil_chain_k2": ["in"],
    "stencil_chain_k4": ["in"],
    "stencil_chain_k8": ["in"],
    "two_convs": ["input", "weights1", "bias1", "weights2", "bias2"],
    "two_convs_indep": ["input1", "input2", "weights1", "bias1", "weights2", "bias2"],
}
OUTPUTS = {"branches": ["out1", "out2"], "branches_indep": ["out1", "out2"],
           "two_convs": ["out1", "out2"], "two_convs_indep": ["out1", "out2"]}
INPUTS.update({wl: list(rowmath.INPUTS[wl]) for wl in rowmath.PIPELINES})
OUTPUTS.update({wl: list(rowmath.OUTPUTS[wl]) for wl in rowmath.PIPELINES})


class Refused(Exception):
    """A peer that cannot run this workload in this storage type: its own words, a refusal."""


def stencil_k(workload):
    return int(workload[len("stencil_chain_k"):]) if workload.startswith("stencil_chain_k") else 0


def expected_shapes(workload, size):
    """numpy shapes of the inputs and outputs for fuselab's size string."""
    if rowmath.is_row(workload):
        n, m = rowmath.parse_size(size)
        sh = rowmath.shapes(workload, n, m)
        return ({a: sh[a] for a in rowmath.INPUTS[workload]},
                {a: sh[a] for a in rowmath.OUTPUTS[workload]})
    dims = [int(v) for v in size.split("x")]
    if workload in ("add_relu", "pointwise_chain", "branches", "branches_indep"):
        (n,) = dims
        ins = {name: (n,) for name in INPUTS[workload]}
        outs = {name: (n,) for name in OUTPUTS.get(workload, ["out"])}
    elif workload == "conv_relu_pool":
        w, h, c, k = dims
        ins = {"input": (c, h, w), "weights": (k, c, 3, 3), "bias": (k,)}
        outs = {"out": (k, h // 2, w // 2)}
    elif workload in ("two_convs", "two_convs_indep"):
        w, h, c, k = dims
        images = ["input1", "input2"] if workload == "two_convs_indep" else ["input"]
        ins = {**{i: (c, h, w) for i in images}, "weights1": (k, c, 3, 3), "bias1": (k,),
               "weights2": (k, c, 3, 3), "bias2": (k,)}
        outs = {"out1": (k, h, w), "out2": (k, h, w)}
    elif workload == "blur3x3" or stencil_k(workload):
        w, h = dims
        halo = 2 if workload == "blur3x3" else stencil_k(workload)
        ins = {"in": (h + halo, w + halo)}
        outs = {"out": (h, w)}
    else:
        raise SystemExit(f"cpu_peers: unknown workload {workload!r} (known: {', '.join(INPUTS)})")
    return ins, outs


# --- the peers: each returns (call, outputs, note, threads) or raises ---------------------------
# `call` computes every output once; `outputs()` returns {name: array} after a call.


def numpy_rows(wl, x, dtype):
    """The row reductions in numpy: float32 math, whole-array operations into buffers allocated
    once, reductions along the contiguous row (numpy sums those pairwise)."""
    m, n = x["x"].shape
    f32 = dtype == "float32"
    st = rowmath.STORAGE[dtype]
    widen, narrow = rowmath.widen, rowmath.narrow
    scratch = np.empty((m, n), np.uint32) if dtype == "bfloat16" else None
    t = np.empty((m, n), F32)
    col = np.empty((m, 1), F32)
    inv_n = F32(1.0 / n)
    res = {name: np.empty((m, n), st) for name in rowmath.OUTPUTS[wl]}
    out = res["out"]
    xs = x["x"]
    xf = xs if f32 else np.empty((m, n), F32)
    conv = "" if f32 else ("; bfloat16 widened and rounded (to nearest even) with integer operations"
                           if dtype == "bfloat16" else "; float16 through numpy's casts")
    if wl == "softmax":
        def call():
            if not f32:
                widen(xs, dtype, out=xf)
            np.max(xf, axis=1, keepdims=True, out=col)
            np.subtract(xf, col, out=t)
            np.exp(t, out=t)
            np.sum(t, axis=1, keepdims=True, out=col)
            np.divide(F32(1), col, out=col)
            if f32:
                np.multiply(t, col, out=out)
            else:
                np.multiply(t, col, out=t)
                narrow(t, dtype, out=out, scratch=scratch)

        note = "max, x - max, exp, sum, x reciprocal: float32, one pass per operator"
    elif wl == "rmsnorm_residual":
        rs, ws, h = x["residual"], x["w"], res["h"]
        wf = np.empty(n, F32)
        eps = F32(rowmath.EPS[wl])

        def call():
            if f32:
                np.add(xs, rs, out=h)
                hf = h
            else:
                widen(xs, dtype, out=xf)
                widen(rs, dtype, out=t)
                np.add(xf, t, out=xf)
                narrow(xf, dtype, out=h, scratch=scratch)  # h as torch's x + residual in the type
                hf = widen(h, dtype, out=xf)  # the normalization reads h as rounded
            w = widen(ws, dtype, out=wf)
            np.multiply(hf, hf, out=t)
            np.sum(t, axis=1, keepdims=True, out=col)
            np.multiply(col, inv_n, out=col)
            np.add(col, eps, out=col)
            np.sqrt(col, out=col)
            np.divide(F32(1), col, out=col)
            np.multiply(hf, col, out=t)
            if f32:
                np.multiply(t, w, out=out)
            else:
                np.multiply(t, w, out=t)
                narrow(t, dtype, out=out, scratch=scratch)

        note = "h = x + residual, then sum h^2, rsqrt, h x rstd x w: float32, one pass per operator"
    else:
        ws, bs = x["w"], x["b"]
        wf, bf = np.empty(n, F32), np.empty(n, F32)
        sq = np.empty((m, n), F32)
        col2 = np.empty((m, 1), F32)
        eps = F32(rowmath.EPS[wl])

        def call():
            if not f32:
                widen(xs, dtype, out=xf)
            w, b = widen(ws, dtype, out=wf), widen(bs, dtype, out=bf)
            np.sum(xf, axis=1, keepdims=True, out=col)
            np.multiply(col, inv_n, out=col)
            np.subtract(xf, col, out=t)
            np.multiply(t, t, out=sq)
            np.sum(sq, axis=1, keepdims=True, out=col2)
            np.multiply(col2, inv_n, out=col2)
            np.add(col2, eps, out=col2)
            np.sqrt(col2, out=col2)
            np.divide(F32(1), col2, out=col2)
            np.multiply(t, col2, out=t)
            np.multiply(t, w, out=t)
            if f32:
                np.add(t, b, out=out)
            else:
                np.add(t, b, out=t)
                narrow(t, dtype, out=out, scratch=scratch)

        note = "mean, x - mean, mean of squares, rsqrt, x w + b: float32, two-pass, one pass per operator"
    return call, lambda: res, note + conv + " (numpy " + np.__version__ + ")", 1


def numpy_peer(wl, x, outs, threads):
    if rowmath.is_row(wl):
        return numpy_rows(wl, x, ROW_DTYPE)
    if wl == "add_relu":
        a, b = x["a"], x["b"]
        res = {}

        def call():
            c = a + b
            res["out"] = np.maximum(c, F32(0))

        return call, lambda: res, "c = a + b; out = maximum(c, 0): two passes, eager", 1
    if wl == "pointwise_chain":
        v = x["x"]
        res = {}

        def call():
            s1 = F32(1.5) * v
            s2 = s1 + F32(0.25)
            s3 = np.maximum(F32(0), s2)
            s4 = F32(0.75) * s3
            s5 = s4 - F32(0.1)
            s6 = np.tanh(s5)
            s7 = F32(2) * s6
            s8 = s7 + F32(1)
            s9 = F32(1) / (F32(1) + np.exp(-s8))
            res["out"] = F32(3) * s9

        return call, lambda: res, "ten operators, one eager pass each (sigmoid as four)", 1
    if wl in ("branches", "branches_indep"):
        v = x["x"]
        w = x["y"] if wl == "branches_indep" else v
        res = {}

        def call():
            res["out1"] = np.maximum(F32(0), F32(2) * v + F32(1))
            res["out2"] = F32(0.5) * (F32(1) / (F32(1) + np.exp(-w)))

        return call, lambda: res, "each operator one eager pass", 1
    if wl == "conv_relu_pool":
        inp, wt, bias = x["input"], x["weights"], x["bias"]
        c, h, w = inp.shape
        k = wt.shape[0]
        padded = np.zeros((c, h + 2, w + 2), F32)
        cols = np.empty((c, 3, 3, h, w), F32)
        wmat = np.ascontiguousarray(wt.reshape(k, c * 9))
        conv = np.empty((k, h * w), F32)
        res = {}

        def call():
            padded[:, 1:-1, 1:-1] = inp
            for dy in range(3):
                for dx in range(3):
                    cols[:, dy, dx] = padded[:, dy:dy + h, dx:dx + w]
            np.matmul(wmat, cols.reshape(c * 9, h * w), out=conv)
            conv3 = conv.reshape(k, h, w)
            conv3 += bias[:, None, None]
            np.maximum(conv3, F32(0), out=conv3)
            hh, ww = h // 2, w // 2
            q = conv3[:, :2 * hh, :2 * ww].reshape(k, hh, 2, ww, 2)
            res["out"] = q.max(axis=(2, 4))

        return (call, lambda: res,
                "im2col (9 shifted copies) + matmul through numpy's BLAS, bias, relu, 2x2 max: eager",
                threads)
    if wl == "blur3x3":
        src = x["in"]
        res = {}

        def call():
            bx = (src[:, :-2] + src[:, 1:-1] + src[:, 2:]) / F32(3)
            res["out"] = (bx[:-2] + bx[1:-1] + bx[2:]) / F32(3)

        return call, lambda: res, "horizontal pass, then vertical: eager, whole-image temporaries", 1
    if stencil_k(wl):
        src = x["in"]
        kk = stencil_k(wl)
        res = {}

        def call():
            s = src
            for _ in range(kk):
                s = (s[:-1, :-1] + s[:-1, 1:] + s[1:, :-1] + s[1:, 1:]) / F32(4)
            res["out"] = s

        return call, lambda: res, f"{kk} 2x2 averages, each eager", 1
    return None


def numexpr_peer(wl, x, outs, threads):
    if rowmath.is_row(wl):
        return None
    import numexpr as ne

    ne.set_num_threads(threads)
    f = {"c0": F32(0), "c1": F32(1), "c2": F32(2), "c3": F32(3), "c4": F32(4), "c05": F32(0.5),
         "c15": F32(1.5), "c025": F32(0.25), "c075": F32(0.75), "c01": F32(0.1)}
    buf = {name: np.empty(shape, F32) for name, shape in outs.items()}

    def ev(expr, out, **arrays):
        return ne.evaluate(expr, local_dict={**f, **arrays}, out=out, casting="no")

    note = f"one fused numexpr evaluate a pass, {threads} threads (numexpr {ne.__version__})"
    if wl == "add_relu":
        a, b = x["a"], x["b"]
        call = lambda: ev("where(a + b > c0, a + b, c0)", buf["out"], a=a, b=b)  # noqa: E731
    elif wl == "pointwise_chain":
        v = x["x"]
        expr = ("c3 * (c1 / (c1 + exp(-(c2 * tanh(c075 * where(c15 * v + c025 > c0, c15 * v + c025, c0)"
                " - c01) + c1))))")
        call = lambda: ev(expr, buf["out"], v=v)  # noqa: E731
    elif wl in ("branches", "branches_indep"):
        v = x["x"]
        w = x["y"] if wl == "branches_indep" else v

        def call():
            ev("where(c2 * v + c1 > c0, c2 * v + c1, c0)", buf["out1"], v=v)
            ev("c05 * (c1 / (c1 + exp(-w)))", buf["out2"], w=w)

        note += "; two evaluates, one an output"
    elif wl == "blur3x3":
        src = x["in"]
        bx = np.empty((src.shape[0], src.shape[1] - 2), F32)

        def call():
            ev("(p + q + r) / c3", bx, p=src[:, :-2], q=src[:, 1:-1], r=src[:, 2:])
            ev("(p + q + r) / c3", buf["out"], p=bx[:-2], q=bx[1:-1], r=bx[2:])

        note += "; bx then out, two evaluates over shifted views"
    elif stencil_k(wl):
        src = x["in"]
        kk = stencil_k(wl)
        h, w = src.shape
        tmp = [np.empty((h - i, w - i), F32) for i in range(1, kk)] + [buf["out"]]

        def call():
            s = src
            for i in range(kk):
                ev("(p + q + r + t) / c4", tmp[i], p=s[:-1, :-1], q=s[:-1, 1:], r=s[1:, :-1], t=s[1:, 1:])
                s = tmp[i]

        note += f"; {kk} evaluates, one a stage, over shifted views"
    else:
        return None
    return call, lambda: buf, note, threads


def onnx_model(wl, x):
    """(model bytes, input names, output names) of the workload as an ONNX graph."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    nodes, inits, ins, outs = [], [], [], []

    def const(name, value):
        inits.append(numpy_helper.from_array(np.array(value, F32), name))
        return name

    def vi(name, shape):
        return helper.make_tensor_value_info(name, TensorProto.FLOAT, list(shape))

    if wl == "add_relu":
        n = x["a"].shape
        ins = [vi("a", n), vi("b", n)]
        outs = [vi("out", n)]
        nodes = [helper.make_node("Add", ["a", "b"], ["sum"]), helper.make_node("Relu", ["sum"], ["out"])]
    elif wl == "pointwise_chain":
        n = x["x"].shape
        ins, outs = [vi("x", n)], [vi("out", n)]
        steps = [("Mul", const("k15", 1.5)), ("Add", const("k025", 0.25)), ("Relu", None),
                 ("Mul", const("k075", 0.75)), ("Sub", const("k01", 0.1)), ("Tanh", None),
                 ("Mul", const("k2", 2.0)), ("Add", const("k1", 1.0)), ("Sigmoid", None),
                 ("Mul", const("k3", 3.0))]
        prev = "x"
        for i, (op, c) in enumerate(steps):
            name = "out" if i == len(steps) - 1 else f"s{i + 1}"
            nodes.append(helper.make_node(op, [prev] + ([c] if c else []), [name]))
            prev = name
    elif wl in ("branches", "branches_indep"):
        n = x["x"].shape
        second = "y" if wl == "branches_indep" else "x"
        ins = [vi("x", n)] + ([vi("y", n)] if wl == "branches_indep" else [])
        outs = [vi("out1", n), vi("out2", n)]
        nodes = [helper.make_node("Mul", ["x", const("k2", 2.0)], ["t1"]),
                 helper.make_node("Add", ["t1", const("k1", 1.0)], ["t2"]),
                 helper.make_node("Relu", ["t2"], ["out1"]),
                 helper.make_node("Sigmoid", [second], ["t3"]),
                 helper.make_node("Mul", ["t3", const("k05", 0.5)], ["out2"])]
    elif wl == "conv_relu_pool":
        c, h, w = x["input"].shape
        k = x["weights"].shape[0]
        inits = [numpy_helper.from_array(x["weights"], "weights"), numpy_helper.from_array(x["bias"], "bias")]
        ins = [vi("input", (1, c, h, w))]
        outs = [vi("out", (1, k, h // 2, w // 2))]
        nodes = [helper.make_node("Conv", ["input", "weights", "bias"], ["conv"], kernel_shape=[3, 3],
                                  pads=[1, 1, 1, 1], strides=[1, 1]),
                 helper.make_node("Relu", ["conv"], ["relu"]),
                 helper.make_node("MaxPool", ["relu"], ["out"], kernel_shape=[2, 2], strides=[2, 2])]
    elif wl in ("two_convs", "two_convs_indep"):
        # Two Conv(pads 1) -> Relu layers in one graph; ONNX Runtime may run them as it likes.
        images = ["input1", "input2"] if wl == "two_convs_indep" else ["input", "input"]
        c, h, w = x[images[0]].shape
        k = x["weights1"].shape[0]
        inits = [numpy_helper.from_array(x[n], n) for n in ("weights1", "bias1", "weights2", "bias2")]
        ins = [vi(n, (1, c, h, w)) for n in dict.fromkeys(images)]
        outs = [vi("out1", (1, k, h, w)), vi("out2", (1, k, h, w))]
        for i in (1, 2):
            nodes += [helper.make_node("Conv", [images[i - 1], f"weights{i}", f"bias{i}"], [f"conv{i}"],
                                       kernel_shape=[3, 3], pads=[1, 1, 1, 1], strides=[1, 1]),
                      helper.make_node("Relu", [f"conv{i}"], [f"out{i}"])]
    elif wl == "blur3x3" or stencil_k(wl):
        hh, ww = x["in"].shape
        kk = stencil_k(wl)
        ins = [vi("in", (1, 1, hh, ww))]
        if wl == "blur3x3":
            outs = [vi("out", (1, 1, hh - 2, ww - 2))]
            nodes = [helper.make_node("AveragePool", ["in"], ["out"], kernel_shape=[3, 3], strides=[1, 1])]
        else:
            outs = [vi("out", (1, 1, hh - kk, ww - kk))]
            prev = "in"
            for i in range(kk):
                name = "out" if i == kk - 1 else f"s{i + 1}"
                nodes.append(helper.make_node("AveragePool", [prev], [name], kernel_shape=[2, 2], strides=[1, 1]))
                prev = name
    else:
        return None
    graph = helper.make_graph(nodes, wl, ins, outs, initializer=inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    return model.SerializeToString(), [i.name for i in ins], [o.name for o in outs]


def feed_of(wl, x):
    """The model's inputs as numpy arrays (4-D NCHW for the image workloads)."""
    if wl == "conv_relu_pool":
        return {"input": x["input"][None]}
    if wl in ("two_convs", "two_convs_indep"):
        return {n: x[n][None] for n in INPUTS[wl] if n.startswith("input")}
    if wl == "blur3x3" or stencil_k(wl):
        return {"in": x["in"][None, None]}
    return {name: x[name] for name in INPUTS[wl]}


ONNX_TYPE = {"float32": 1, "float16": 10, "bfloat16": 16}  # TensorProto.FLOAT, FLOAT16, BFLOAT16


def row_onnx_model(wl, x, dtype):
    """(model bytes, {input name: (array, shape)}, {output name: shape}) of a row reduction: one
    ONNX Runtime node, the weights as initializers."""
    from onnx import helper

    tp = ONNX_TYPE[dtype]
    m, n = x["x"].shape
    vi = lambda name, shape: helper.make_tensor_value_info(name, tp, list(shape))  # noqa: E731
    init = lambda name: helper.make_tensor(name, tp, [n], np.ascontiguousarray(x[name]).tobytes(), raw=True)  # noqa: E731
    if wl == "softmax":
        rows = (m, n)
        nodes = [helper.make_node("Softmax", ["x"], ["out"], axis=-1)]
        ins, outs, inits, opsets = {"x": rows}, {"out": rows}, [], [("", 13)]
    elif wl == "layernorm":
        rows = (m, n)
        nodes = [helper.make_node("LayerNormalization", ["x", "w", "b"], ["out"], axis=-1,
                                  epsilon=rowmath.EPS[wl], stash_type=1)]
        ins, outs, inits, opsets = {"x": rows}, {"out": rows}, [init("w"), init("b")], [("", 17)]
    else:  # input (batch, sequence, hidden); outputs output, mean, inv_std_var, input_skip_bias_sum
        rows = (1, m, n)
        nodes = [helper.make_node("SkipSimplifiedLayerNormalization", ["x", "residual", "w"],
                                  ["out", "", "", "h"], domain="com.microsoft", epsilon=rowmath.EPS[wl])]
        ins, outs, inits = {"x": rows, "residual": rows}, {"out": rows, "h": rows}, [init("w")]
        opsets = [("", 17), ("com.microsoft", 1)]
    graph = helper.make_graph(nodes, wl, [vi(k, s) for k, s in ins.items()],
                              [vi(k, s) for k, s in outs.items()], initializer=inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid(d, v) for d, v in opsets])
    model.ir_version = 8
    return model.SerializeToString(), ins, outs


def onnxruntime_rows(wl, x, threads, dtype):
    import onnxruntime as ort

    model, ins, outs = row_onnx_model(wl, x, dtype)
    so = ort.SessionOptions()
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    so.intra_op_num_threads = threads
    so.inter_op_num_threads = 1
    so.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    op = {"softmax": "Softmax", "layernorm": "LayerNormalization",
          "rmsnorm_residual": "com.microsoft SkipSimplifiedLayerNormalization"}[wl]
    try:
        sess = ort.InferenceSession(model, so, providers=["CPUExecutionProvider"])
    except Exception as e:  # no kernel for this type on the CPU provider
        if "NOT_IMPLEMENTED" in str(e) or "Could not find an implementation" in str(e):
            raise Refused(f"onnxruntime {ort.__version__} CPU provider has no {dtype} kernel for {op}: "
                          f"{str(e).strip()[:300]}") from None
        raise
    io = sess.io_binding()
    tp = ONNX_TYPE[dtype]
    keep = []  # the arrays the bound OrtValues point into
    for name, shape in ins.items():
        arr = np.ascontiguousarray(x[name]).reshape(shape)
        keep.append(arr)
        io.bind_ortvalue_input(name, ort.OrtValue.ortvalue_from_numpy_with_onnx_type(arr, tp))
    res = {name: np.empty(x["x"].shape, rowmath.STORAGE[dtype]) for name in outs}
    for name, shape in outs.items():
        io.bind_ortvalue_output(name, ort.OrtValue.ortvalue_from_numpy_with_onnx_type(res[name].reshape(shape), tp))
    call = lambda: sess.run_with_iobinding(io)  # noqa: E731
    return (call, lambda: res,
            f"onnxruntime {ort.__version__} {op} ({dtype}), CPU provider, ORT_ENABLE_ALL, {threads} intra-op "
            f"threads, IOBinding over the script's buffers", threads)


def onnxruntime_peer(wl, x, outs, threads):
    if rowmath.is_row(wl):
        return onnxruntime_rows(wl, x, threads, ROW_DTYPE)
    import onnxruntime as ort

    built = onnx_model(wl, x)
    if built is None:
        return None
    model, in_names, out_names = built
    so = ort.SessionOptions()
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    so.intra_op_num_threads = threads
    so.inter_op_num_threads = 1
    so.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    sess = ort.InferenceSession(model, so, providers=["CPUExecutionProvider"])
    feed = feed_of(wl, x)
    io = sess.io_binding()
    for name in in_names:
        io.bind_cpu_input(name, np.ascontiguousarray(feed[name]))
    buf = {}
    for o in sess.get_outputs():
        arr = np.empty([int(d) for d in o.shape], F32)
        buf[o.name] = arr
        io.bind_output(o.name, "cpu", 0, F32, list(arr.shape), arr.ctypes.data)
    call = lambda: sess.run_with_iobinding(io)  # noqa: E731
    shaped = lambda: {n: buf[n].reshape(outs[n]) for n in out_names}  # noqa: E731
    return (call, shaped,
            f"onnxruntime {ort.__version__} CPU provider, ORT_ENABLE_ALL, {threads} intra-op threads, IOBinding",
            threads)


def opencv_peer(wl, x, outs, threads):
    if rowmath.is_row(wl):
        return None
    import cv2

    cv2.setNumThreads(threads)
    ver = f"OpenCV {cv2.__version__}"
    if wl == "blur3x3":
        src = x["in"]
        full = np.empty_like(src)
        h, w = outs["out"]
        call = lambda: cv2.blur(src, (3, 3), dst=full, borderType=cv2.BORDER_REPLICATE)  # noqa: E731
        return (call, lambda: {"out": full[1:h + 1, 1:w + 1]},
                f"cv2.blur 3x3 on the whole input, valid region kept ({ver})", threads)
    if stencil_k(wl):
        kk = stencil_k(wl)
        src = x["in"]
        ping, pong = np.empty_like(src), np.empty_like(src)
        h, w = outs["out"]
        res = {}

        def call():
            s, bufs = src, (ping, pong)
            for i in range(kk):
                d = bufs[i % 2]
                cv2.boxFilter(s, -1, (2, 2), dst=d, anchor=(0, 0), normalize=True,
                              borderType=cv2.BORDER_REPLICATE)
                s = d
            res["out"] = s[:h, :w]

        return (call, lambda: res,
                f"{kk} cv2.boxFilter 2x2 passes anchored at (0, 0), valid region kept ({ver})", threads)
    if wl == "add_relu":
        n = x["a"].shape[0]
        a, b = x["a"].reshape(1, n), x["b"].reshape(1, n)
        out = np.empty((1, n), F32)

        def call():
            cv2.add(a, b, dst=out)
            cv2.max(out, 0.0, dst=out)

        return call, lambda: {"out": out.reshape(n)}, f"cv2.add then cv2.max with 0, in place ({ver})", threads
    if wl == "conv_relu_pool":
        model, _, _ = onnx_model(wl, x)
        with tempfile.NamedTemporaryFile(suffix=".onnx", delete=False) as fh:
            fh.write(model)
            path = fh.name
        try:
            net = cv2.dnn.readNetFromONNX(path)
        finally:
            os.unlink(path)
        net.setPreferableBackend(cv2.dnn.DNN_BACKEND_OPENCV)
        net.setPreferableTarget(cv2.dnn.DNN_TARGET_CPU)
        blob = np.ascontiguousarray(x["input"][None])
        res = {}

        def call():
            net.setInput(blob)
            res["out"] = net.forward()

        return (call, lambda: {"out": res["out"].reshape(outs["out"])},
                f"cv2.dnn (the onnxruntime peer's ONNX graph), OpenCV backend, CPU ({ver})", threads)
    return None


PEERS = [("numpy", numpy_peer), ("numexpr", numexpr_peer), ("onnxruntime", onnxruntime_peer),
         ("opencv", opencv_peer)]


ROW_DTYPE = None  # a row reduction's storage type, from its input files


def main():
    global ROW_DTYPE
    wl, size = ARGS.workload, ARGS.size
    in_shapes, out_shapes = expected_shapes(wl, size)
    row = rowmath.is_row(wl)
    x = {}
    for name, shape in in_shapes.items():
        path = os.path.join(ARGS.dir, name + ".npy")
        arr = np.load(path)
        if row:
            dt = rowmath.dtype_of(arr.dtype)
            if dt is None or (ROW_DTYPE or ARGS.dtype or dt) != dt:
                want = ROW_DTYPE or ARGS.dtype
                raise SystemExit(f"cpu_peers: {path} is {arr.dtype}, expected "
                                 + (f"{rowmath.STORAGE[want].str} ({want})" if want else
                                    "<f4 (float32), <f2 (float16) or <u2 (bfloat16 bits)"))
            ROW_DTYPE = dt
        elif arr.dtype != F32:
            raise SystemExit(f"cpu_peers: {path} is {arr.dtype}, expected float32")
        if tuple(arr.shape) != tuple(shape):
            raise SystemExit(f"cpu_peers: {path} has shape {arr.shape}, expected {shape} for {wl} {size}")
        x[name] = np.ascontiguousarray(arr)
    wanted = [p for p in ARGS.peers.split(",") if p]
    for name, make in PEERS:
        if wanted and name not in wanted:
            continue
        try:
            peer = make(wl, x, out_shapes, ARGS.threads)
            if peer is None:
                continue  # this peer does not implement the workload
            call, outputs, note, threads = peer
            call()  # the first call: warm-up and the outputs' shapes
            got = outputs()
            want = rowmath.STORAGE[ROW_DTYPE] if row else np.dtype(F32)
            for oname, shape in out_shapes.items():
                if tuple(got[oname].shape) != tuple(shape) or got[oname].dtype != want:
                    raise RuntimeError(f"output {oname} is {got[oname].dtype} {got[oname].shape}, "
                                       f"expected {ROW_DTYPE or 'float32'} ({want}) {shape}")
            median, fastest, repeats, calls = time_host(call, ARGS.budget)
            for oname in out_shapes:
                np.save(os.path.join(ARGS.dir, f"{name}.{oname}.npy"), np.ascontiguousarray(outputs()[oname]))
            rec = {"name": name, "median_us": median * 1e6, "min_us": fastest * 1e6, "repeats": repeats,
                   "calls_per_repeat": calls, "threads": threads, "note": note}
            if row:
                rec["dtype"] = ROW_DTYPE
        except Refused as e:  # a documented limit of the peer, in its own words
            rec = {"name": name, "error": str(e), "refused": True}
            if row:
                rec["dtype"] = ROW_DTYPE
        except Exception as e:  # a peer that fails says so in its line; the others still run
            print(traceback.format_exc(), file=sys.stderr)
            rec = {"name": name, "error": f"{type(e).__name__}: {e}"}
        print(json.dumps(rec), flush=True)


if __name__ == "__main__":
    main()
