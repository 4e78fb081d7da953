#!/usr/bin/env python3
"""Time fuselab's peers -- PyTorch eager and torch.compile -- on fuselab's workloads.

Run on the GPU machine (PyTorch + Triton installed):

    python3 peers/peers.py --json out.json                 # every workload, default sizes
    python3 peers/peers.py --quick --json quick.json       # small sizes, fewer repetitions
    python3 peers/peers.py --workload blur3x3 --size 4096x4096 --json b.json
    python3 peers/peers.py --plan                          # the peers a run would time, and how long
    python3 peers/peers.py --device cpu --quick            # smoke test without a GPU
    python3 peers/peers.py --workload rows --json rows.json   # the row reductions (issue 23)

The math of every workload is the one in shared/WORKLOADS.md (float32; a Halide buffer (x, y, c)
is the torch tensor [c][y][x]). cuDNN runs with torch.backends.cudnn.benchmark = True (what
performance users set; meta "cudnn_benchmark"), TF32 off. For each (workload, size) it times:
  torch_eager;
  torch_compile                 default mode, dynamic=False;
  torch_compile_dynamic         dynamic=True (conv_relu_pool shapes);
  torch_compile_max_autotune    mode="max-autotune", dynamic=False (every conv shape:
                                conv_relu_pool, two_convs, two_convs_indep; not with --skip-autotune;
                                CUDA graphs, as that mode enables them);
  torch_compile_reduce_overhead mode="reduce-overhead" (CUDA graphs), dynamic=False, at small sizes
                                (at most 2^16 elements or pixels).
Every compiled peer is a fresh compile of its own (torch._dynamo.reset() first, then
torch.compile(fn, dynamic=..., mode=...)), once per shape: recompiling one compiled function for a
new shape would silently switch Inductor to dynamic-shape kernels. Its compile time (the first
three calls) is printed and recorded as compile_s. Graph modes get their inputs marked static
(a replay copies nothing).
Two measures per peer, as fuselab bench takes them:
  median_us (timing: "events"): the median of triton.testing.do_bench, which times each call with
    CUDA events after flushing L2 (a 256 MB write); the host's share of a call is hidden behind
    the flush. On --device cpu: the median of time.perf_counter per call (timing:
    "host_per_call"; a smoke test).
  host_us: fuselab's host method: wall clock per call over batches of back-to-back calls, each
    batch at least 20 ms and ending with torch.cuda.synchronize(), median over at least 5
    batches, after warm-up.
Inputs are fresh uniform randoms in [-1, 1].
Eager is checked against the same math run in float64; a compiled peer against eager
(relative L2 error <= 1e-5, the convs <= 1e-4). `copy` (a device-to-device copy) is always
run first: its bandwidth gives every record's floor_us = min_bytes / copy bandwidth, where
min_bytes counts each input read once and each output written once (float32).

How long (an H200, estimated from the parts; --plan prints the estimate for any selection): the
default run is about 7 minutes, most of it compiling (a first compile in a process ~20 s, then
~5-10 s a compile; max-autotune ~30-60 s a conv shape) and ~1.5 s of timing a peer. Under a
10-minute limit per command, run it in two calls:
    python3 peers/peers.py --json a.json --workload copy --workload add_relu \
        --workload pointwise_chain --workload branches --workload branches_indep \
        --workload blur3x3 --workload stencil_chain_k2 --workload stencil_chain_k4 \
        --workload stencil_chain_k8                              # ~2.5 minutes
    python3 peers/peers.py --json b.json --workload conv_relu_pool --workload two_convs \
        --workload two_convs_indep                               # ~5 minutes
(or --skip-autotune for a run without max-autotune, ~4 minutes in all), then
    python3 peers/peers.py --merge a.json b.json --json peers.json   # one file, as one run's

The row reductions (issue 23: softmax, rmsnorm_residual, layernorm; shared/WORKLOADS.md "Row
reductions", their torch forms in peers/row_peers.py, their numpy math in peers/rowmath.py) run
only where asked: --workload rows (all three) or by name; the default selection is the workloads
above. Sizes NxM (row length first; torch [M][N]), 2^26 elements at N = 256 .. 262144; storage
types float32, bfloat16, float16 (--dtype picks; --row-n N picks row lengths). Peers: torch_eager
(rmsnorm_residual: the faster of F.rms_norm and the written-out formula, both times in
`forms_us`), torch_compile (static, a fresh compile per shape and type), liger (Liger-Kernel
0.8.5 from the carried wheel; a refusal record past N = 65536) and, last in the run so that the
time budget drops them first, torch_compile_max_autotune at N = 4096 and 65536 (--autotune-n;
not with --skip-autotune). --peer NAME keeps only the named peers (repeatable). Every row peer's
output is checked against float64 from the same rounded inputs (relative L2 error <= 1e-5
float32, 1e-2 bfloat16, 2e-3 float16) and h bit for bit against torch's x + residual. Timing as
above with shorter windows (do_bench 20 ms warm-up, 100 ms of calls; host batches for 0.1 s):
calls take 0.1 to 1 ms here. --plan estimates 4.0 minutes for the 54 (op, type, N) cells
without max-autotune and 4.1 for the 18 max-autotune peers alone (estimates from the parts, not
yet measured on the H200), so run them as two device calls (results/report.py reads both files):
    python3 peers/peers.py --workload rows --skip-autotune --time-budget 420 \
        --json $OUT/peers_rows.json
    python3 peers/peers.py --workload rows --peer torch_compile_max_autotune --time-budget 420 \
        --json $OUT/peers_rows_autotune.json
or as one (`--workload rows --time-budget 560`; the budget drops max-autotune first). The
budget compares the time spent plus the next peer's estimate with the limit, so a slower
machine loses peers at the end of the order, each recorded as skipped. Liger's
wheel must travel in .carry/wheels/ (gpu/carry.sh) or gpu/wheels/.

Output: a table on stdout, progress on stderr, and with --json PATH a JSON file
{"meta": {...}, "records": [{workload, size, dtype, name, kind: "peer", median_us, timing, host_us,
host_repeats, host_calls_per_repeat, min_bytes, floor_us, max_rel_err, ok, compile_s?, error?,
refused?, form?, forms_us?}, ...]} rewritten after every record. dtype is "float32" for every
workload but the row reductions'.
"""
import argparse
import datetime
import json
import math
import shlex
import statistics
import subprocess
import sys
import time
import traceback

import torch
import torch.nn.functional as F

import rowmath  # peers/rowmath.py (beside this script): the row reductions' names and sizes

WORKLOADS = ["copy", "add_relu", "pointwise_chain", "branches", "branches_indep", "blur3x3",
             "stencil_chain_k2", "stencil_chain_k4", "stencil_chain_k8", "conv_relu_pool",
             "two_convs", "two_convs_indep"]  # the default selection
ROWS = list(rowmath.PIPELINES)  # softmax, rmsnorm_residual, layernorm: only where asked
STENCIL = ["stencil_chain_k2", "stencil_chain_k4", "stencil_chain_k8", "blur3x3"]
CONVS = ["conv_relu_pool", "two_convs", "two_convs_indep"]  # size WxHxCxK; max-autotune peers
TWO_CONVS = ["two_convs", "two_convs_indep"]
N28 = str(2 ** 28)
SIZES = {  # device -> mode -> workload -> size strings
    "cuda": {
        "full": {"copy": [N28], "add_relu": [N28, "4096"], "pointwise_chain": [N28, "65536"],
                 "branches": [N28], "branches_indep": [N28],
                 **{w: ["8192x8192"] for w in STENCIL},
                 "conv_relu_pool": ["3840x2160x3x16", "1920x1080x16x16", "256x256x64x64"],
                 **{w: ["1920x1080x16x16", "64x64x16x16"] for w in TWO_CONVS}},
        "quick": {"copy": [str(2 ** 24)], "add_relu": ["4096"], "pointwise_chain": ["65536"],
                  "branches": ["65536"], "branches_indep": ["65536"],
                  **{w: ["256x256"] for w in STENCIL}, "conv_relu_pool": ["256x256x64x64"],
                  **{w: ["64x64x16x16"] for w in TWO_CONVS}},
    },
    "cpu": {  # smoke-test sizes only; non-square images catch x/y mix-ups
        "full": {"copy": [str(2 ** 22)], "add_relu": [str(2 ** 20), "4096"],
                 "pointwise_chain": [str(2 ** 20), "65536"], "branches": [str(2 ** 20)],
                 "branches_indep": [str(2 ** 20)], **{w: ["512x384"] for w in STENCIL},
                 "conv_relu_pool": ["256x192x3x16", "64x48x16x16"],
                 **{w: ["64x48x16x16"] for w in TWO_CONVS}},
        "quick": {"copy": [str(2 ** 20)], "add_relu": ["4096"], "pointwise_chain": ["65536"],
                  "branches": ["65536"], "branches_indep": ["65536"],
                  **{w: ["96x64"] for w in STENCIL}, "conv_relu_pool": ["33x21x8x4"],
                  **{w: ["33x21x8x4"] for w in TWO_CONVS}},
    },
}
for _dev, _modes in SIZES.items():  # the row reductions' sizes, NxM
    _modes["full"].update({w: rowmath.default_sizes(_dev) if _dev == "cuda" else ["256x64", "4096x8"]
                           for w in ROWS})
    _modes["quick"].update({w: ["4096x1024"] if _dev == "cuda" else ["1000x7"] for w in ROWS})
ROW_BENCH_MS = {False: (20, 100), True: (10, 50)}  # do_bench warm-up and timed ms, by --quick
ROW_HOST_BUDGET_S = 0.1
AUTOTUNE_N = (4096, 65536)  # the row lengths at which max-autotune runs
SMALL = 2 ** 16  # at or below this many elements (pixels for images) also time reduce-overhead


def log(*a):
    print(*a, file=sys.stderr, flush=True)


# ---------------------------------------------------------------- workload math (WORKLOADS.md)
def add_relu(a, b):
    return torch.relu(a + b)


def pointwise_chain(x):  # the seed's 10 separate ops, written out one by one
    s1 = x * 1.5
    s2 = s1 + 0.25
    s3 = torch.relu(s2)
    s4 = s3 * 0.75
    s5 = s4 - 0.1
    s6 = torch.tanh(s5)
    s7 = s6 * 2
    s8 = s7 + 1
    s9 = torch.sigmoid(s8)
    return s9 * 3


def branches(x):
    return torch.relu(x * 2 + 1), torch.sigmoid(x) * 0.5


def branches_indep(x, y):
    return torch.relu(x * 2 + 1), torch.sigmoid(y) * 0.5


def blur3x3(inp):  # inp is [H+2][W+2]: inp[y][x] == in(x, y); no padding, offsets 0..2
    h2, w2 = inp.shape
    w, h = w2 - 2, h2 - 2
    bx = (inp[:, 0:w] + inp[:, 1:w + 1] + inp[:, 2:w + 2]) / 3  # bx(x, y), [H+2][W]
    return (bx[0:h] + bx[1:h + 1] + bx[2:h + 2]) / 3           # out(x, y), [H][W]


def stencil_chain(k):
    def run(inp):  # inp is [H+K][W+K]; each stage is one smaller in x and in y
        s = inp
        for _ in range(k):
            s = (s[:-1, :-1] + s[:-1, 1:] + s[1:, :-1] + s[1:, 1:]) / 4
        return s
    run.__name__ = f"stencil_chain_k{k}"
    return run


def conv_relu_pool(inp, w, bias):  # inp [1][C][H][W], w [K][C][3][3], bias [K]
    return F.max_pool2d(torch.relu(F.conv2d(inp, w, bias, padding=1)), 2)


def two_convs(inp, w1, b1, w2, b2):  # one shared input [1][C][H][W]; w [K][C][3][3], b [K]
    return (torch.relu(F.conv2d(inp, w1, b1, padding=1)),
            torch.relu(F.conv2d(inp, w2, b2, padding=1)))


def two_convs_indep(in1, in2, w1, b1, w2, b2):  # two inputs of one shape
    return (torch.relu(F.conv2d(in1, w1, b1, padding=1)),
            torch.relu(F.conv2d(in2, w2, b2, padding=1)))


def parse_size(workload, size):
    """Size string -> (canonical string, list of dimensions)."""
    try:
        dims = [int(p) for p in size.lower().split("x")]
    except ValueError:
        dims = []
    want = 4 if workload in CONVS else 2 if workload in STENCIL or workload in ROWS else 1
    if len(dims) != want or min(dims) < 1:
        shape = "NxM" if workload in ROWS else ['N', 'WxH', '', 'WxHxCxK'][want - 1]
        raise ValueError(f"{workload}: size {size!r} should be {shape} with positive integers")
    return "x".join(str(d) for d in dims), dims


def build(workload, dims, dev):
    """-> (fn, inputs, min_bytes, tolerance, elements used for the small-size test)."""
    def rnd(*shape):
        return torch.empty(*shape, dtype=torch.float32, device=dev).uniform_(-1.0, 1.0)
    if workload == "copy":
        n = dims[0]
        dst = torch.empty(n, dtype=torch.float32, device=dev)
        return (lambda x: dst.copy_(x)), (rnd(n),), 2 * 4 * n, 0.0, n
    pointwise = {"add_relu": (add_relu, 2, 1), "pointwise_chain": (pointwise_chain, 1, 1),
                 "branches": (branches, 1, 2), "branches_indep": (branches_indep, 2, 2)}
    if workload in pointwise:  # (fn, inputs, outputs), each N floats
        fn, n_in, n_out = pointwise[workload]
        n = dims[0]
        return fn, tuple(rnd(n) for _ in range(n_in)), 4 * n * (n_in + n_out), 1e-5, n
    if workload == "blur3x3":
        w, h = dims
        return blur3x3, (rnd(h + 2, w + 2),), 4 * ((w + 2) * (h + 2) + w * h), 1e-5, w * h
    if workload.startswith("stencil_chain_k"):
        k = int(workload[len("stencil_chain_k"):])
        w, h = dims
        return (stencil_chain(k), (rnd(h + k, w + k),),
                4 * ((w + k) * (h + k) + w * h), 1e-5, w * h)
    if workload == "conv_relu_pool":
        w, h, c, k = dims
        inputs = (rnd(1, c, h, w), rnd(k, c, 3, 3), rnd(k))
        out_elems = k * (h // 2) * (w // 2)
        return conv_relu_pool, inputs, 4 * (c * h * w + k * c * 9 + k + out_elems), 1e-4, w * h
    if workload in TWO_CONVS:
        w, h, c, k = dims
        images = 2 if workload == "two_convs_indep" else 1
        inputs = tuple(rnd(1, c, h, w) for _ in range(images)) + (
            rnd(k, c, 3, 3), rnd(k), rnd(k, c, 3, 3), rnd(k))
        fn = two_convs_indep if images == 2 else two_convs
        min_bytes = 4 * (images * c * h * w + 2 * (k * c * 9 + k) + 2 * k * h * w)
        return fn, inputs, min_bytes, 1e-4, w * h
    raise ValueError(f"unknown workload {workload!r}")


# ---------------------------------------------------------------- checking and timing
def as_tuple(out):
    return tuple(out) if isinstance(out, (tuple, list)) else (out,)


def rel_err(got, ref):
    """Largest over outputs of ||got - ref|| / ||ref||, in float64; NaN or a shape mismatch -> inf."""
    worst = 0.0
    for g, r in zip(as_tuple(got), as_tuple(ref), strict=True):
        if g.shape != r.shape:
            return float("inf")
        r = r.double()
        num = torch.linalg.vector_norm(g.double() - r).item()
        den = torch.linalg.vector_norm(r).item()
        e = num / den if den > 0 else (0.0 if num == 0 else float("inf"))
        worst = max(worst, e if e == e else float("inf"))
    return worst


def float64_err(fn, inputs, out):
    """Eager's error against the same math in float64 (on the device; on the CPU if that fails)."""
    try:
        return rel_err(out, fn(*[t.double() for t in inputs]))
    except Exception:  # no float64 kernel there, or out of memory
        return rel_err(tuple(t.cpu() for t in out), fn(*[t.double().cpu() for t in inputs]))


def time_us(fn, dev, quick, windows=None):
    """Median time of one call of fn, in microseconds (windows: do_bench's warm-up and timed
    milliseconds, default by quick)."""
    if dev == "cuda":
        from triton.testing import do_bench
        warmup, rep = windows or ((25, 100) if quick else (100, 500))  # milliseconds
        try:
            ms = do_bench(fn, warmup=warmup, rep=rep, return_mode="median")
        except TypeError:  # older triton: no return_mode
            ms = do_bench(fn, warmup=warmup, rep=rep, quantiles=[0.5])
        if isinstance(ms, (list, tuple)):
            ms = ms[0]
        return float(ms) * 1e3
    for _ in range(2):
        fn()
    times, t_end = [], time.perf_counter() + (0.2 if quick else 1.0)
    while len(times) < 5 or (time.perf_counter() < t_end and len(times) < 1000):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1e6


def sync(dev):
    if dev == "cuda":
        torch.cuda.synchronize()


MIN_BATCH_S = 20e-3  # as fuselab's TimingOptions: min_batch_s, min_repeats, max_repeats
MIN_BATCHES, MAX_BATCHES = 5, 100


def host_time_us(fn, dev, quick, budget=None):
    """fuselab's host measure: (median us per call, batches, calls per batch) over batches of
    back-to-back calls, each at least MIN_BATCH_S long and ending with a device sync."""
    def batch(calls):  # seconds per call
        t0 = time.perf_counter()
        for _ in range(calls):
            fn()
        sync(dev)
        return (time.perf_counter() - t0) / calls

    batch(1)  # warm-up
    # A single call's time includes a whole sync latency, so a batch sized from it falls short:
    # size the next batch from the last one (10% over) until one measured batch is long enough.
    # These batches are warm-up too.
    calls = 1
    while True:
        per_call = batch(calls)
        if per_call * calls >= MIN_BATCH_S or calls >= 1 << 24:
            break
        calls = min(1 << 24, max(calls + 1, math.ceil(1.1 * MIN_BATCH_S / max(per_call, 1e-9))))
    budget = budget or (0.1 if quick else 0.4)  # fuselab bench's default --budget is 0.4 s
    samples, t_end = [], time.perf_counter() + budget
    while len(samples) < MIN_BATCHES or (time.perf_counter() < t_end and len(samples) < MAX_BATCHES):
        samples.append(batch(calls))
    return statistics.median(samples) * 1e6, len(samples), calls


def skips():
    from torch._dynamo.utils import counters
    return counters["inductor"]["cudagraph_skips"]


# A peer: (record name, torch.compile mode or "eager", dynamic= for torch.compile).
EAGER = ("torch_eager", "eager", None)
COMPILE = ("torch_compile", "default", False)
DYNAMIC = ("torch_compile_dynamic", "default", True)
MAX_AUTOTUNE = ("torch_compile_max_autotune", "max-autotune", False)
REDUCE_OVERHEAD = ("torch_compile_reduce_overhead", "reduce-overhead", False)
GRAPH_MODES = ("reduce-overhead", "max-autotune")  # the modes in which Inductor uses CUDA graphs


def peers_for(workload, dev, elems, skip_autotune=False):
    """The peers timed on one (workload, size), in order: eager first (the compiled ones are
    checked against it), the CUDA-graph modes last (they mark the inputs static)."""
    if workload == "copy":
        return [EAGER]
    out = [EAGER, COMPILE]
    if workload == "conv_relu_pool":
        out.append(DYNAMIC)
    if workload in CONVS and not skip_autotune:
        out.append(MAX_AUTOTUNE)
    if dev == "cuda" and elems <= SMALL:
        out.append(REDUCE_OVERHEAD)
    return out


def elements(workload, dims):
    """What the small-size test counts: elements (1-D) or pixels (images)."""
    return dims[0] if len(dims) == 1 else dims[0] * dims[1]


def run_one(workload, size, dims, dev, quick, skip_autotune=False, peers=None, deadline=None,
            estimator=None):
    """Time every peer (default: peers_for) on one (workload, size); returns records (copy's
    bandwidth not yet applied). deadline (time.perf_counter() seconds): a peer whose estimate
    (estimator, an Estimator) would end past it is skipped, with an error saying so."""
    base = {"workload": workload, "size": size, "dtype": "float32", "kind": "peer"}
    try:
        fn, inputs, min_bytes, tol, elems = build(workload, dims, dev)
    except Exception as e:  # e.g. out of memory
        log(f"[peers] {workload} {size}: could not make the inputs: {e}")
        return [dict(base, name="torch_eager", min_bytes=None, median_us=None, timing=None,
                     host_us=None, max_rel_err=None, ok=False,
                     error=f"inputs: {type(e).__name__}: {e}"[:2000])]
    base["min_bytes"] = min_bytes
    records, eager_out = [], None
    if peers is None:
        peers = peers_for(workload, dev, elems, skip_autotune)
    for name, mode, dynamic in peers:
        rec = dict(base, name=name, median_us=None,
                   timing="events" if dev == "cuda" else "host_per_call", host_us=None,
                   max_rel_err=None, ok=False)
        if mode != "eager":
            rec["compile"] = {"mode": mode, "dynamic": dynamic}
        cfn = call = None
        if deadline is not None:
            est = (estimator or Estimator()).peer(workload, dims, mode, dynamic, commit=False)
            if time.perf_counter() + est > deadline:
                rec["error"] = (f"skipped: it would end past the run's time budget (--time-budget; "
                                f"about {est:.0f} s estimated for it)")
                log(f"[peers] {workload} {size} {name}: {rec['error']}")
                records.append(rec)
                continue
        if estimator is not None:
            estimator.commit(dims, mode)
        log(f"[peers] {workload} {size} {name} ...")
        try:
            if mode == "eager":
                eager_out = tuple(t.clone() for t in as_tuple(fn(*inputs)))
                sync(dev)
                if workload == "copy":
                    err = rel_err(eager_out, inputs)
                else:
                    err = float64_err(fn, inputs, eager_out)
                call = lambda: fn(*inputs)
            else:
                if eager_out is None:
                    raise RuntimeError("no eager output to check against")
                graphs = mode in GRAPH_MODES and dev == "cuda"
                if graphs:  # fixed input addresses: the graph replays without copying inputs
                    for t in inputs:
                        torch._dynamo.mark_static_address(t)
                # A fresh compile for this peer and shape: no cache entry of another peer or
                # shape on fn's code, so nothing is recompiled (which would turn on dynamic shapes).
                torch._dynamo.reset()
                skips0 = skips()
                kw = {} if mode == "default" else {"mode": mode}
                cfn = torch.compile(fn, dynamic=dynamic, **kw)
                t0 = time.perf_counter()
                for _ in range(3):  # compile; with CUDA graphs: warm-up run, record, replay
                    if graphs:
                        torch.compiler.cudagraph_mark_step_begin()
                    got = tuple(t.clone() for t in as_tuple(cfn(*inputs)))
                sync(dev)
                rec["compile_s"] = round(time.perf_counter() - t0, 2)
                log(f"[peers]   compiled in {rec['compile_s']:.1f} s (mode {mode}, dynamic={dynamic})")
                if graphs and skips() > skips0:
                    rec["note"] = "inductor skipped CUDA graphs (see its log)"
                err = rel_err(got, eager_out)
                del got
                if graphs:
                    def call():
                        torch.compiler.cudagraph_mark_step_begin()
                        return cfn(*inputs)
                else:
                    call = lambda: cfn(*inputs)
            rec["max_rel_err"] = err if math.isfinite(err) else None  # JSON has no inf/NaN
            rec["ok"] = err <= tol
            if not rec["ok"]:
                why = f"{err:.3g}" if math.isfinite(err) else "NaN, inf or wrong shape"
                rec["error"] = f"output mismatch: relative L2 error {why} > {tol:g}"
                log(f"[peers]   MISMATCH {rec['error']}")
            rec["median_us"] = round(time_us(call, dev, quick), 3)
            host_us, batches, calls = host_time_us(call, dev, quick)
            rec.update(host_us=round(host_us, 3), host_repeats=batches, host_calls_per_repeat=calls)
            log(f"[peers]   {rec['median_us']:.1f} us ({rec['timing']}), host {host_us:.1f} us, "
                f"rel err {err:.2e}")
        except Exception as e:  # one peer failing must not stop the others
            rec["ok"] = False
            rec["error"] = f"{type(e).__name__}: {e}"[:2000]
            log(f"[peers]   ERROR {rec['error'].splitlines()[0] if rec['error'] else ''}")
            log(traceback.format_exc(limit=3))
        cfn = call = None  # drop the compiled code and its CUDA graphs before the next peer
        records.append(rec)
    return records


LIGER = ("liger", "liger", None)  # a row reduction's Liger-Kernel function


def row_plan(workloads, sizes, dtypes, ns, names, skip_autotune, autotune_n):
    """The row reductions' (workload, size, n, m, dtype, peers) in run order: every cell's
    eager, compile and Liger first, then max-autotune at the autotune_n row lengths, so that the
    time budget drops those first. names: keep only these peers (None: all)."""
    cells = []
    for w in workloads:
        for d in dtypes:
            for size in sizes[w]:
                n, m = rowmath.parse_size(size)
                if not ns or n in ns:
                    cells.append((w, rowmath.size_string(n, m), n, m, d))
    keep = lambda ps: [p for p in ps if not names or p[0] in names]  # noqa: E731
    plan = [c + (keep([EAGER, COMPILE, LIGER]),) for c in cells]
    if not skip_autotune:
        plan += [c + (keep([MAX_AUTOTUNE]),) for c in cells if c[2] in autotune_n]
    return [p for p in plan if p[-1]]


def row_seed(workload, n, dtype):
    import zlib
    return zlib.crc32(f"{workload} {n} {dtype}".encode())


def run_rows(workload, size, n, m, dtype, dev, quick, peers, deadline=None, estimator=None, log_=None):
    """Time the given peers on one row-reduction cell (workload, NxM, dtype); returns records
    (copy's bandwidth not yet applied). Each peer is checked against float64 (row_peers.check)."""
    import row_peers
    base = {"workload": workload, "size": size, "dtype": dtype, "kind": "peer",
            "min_bytes": rowmath.min_bytes(workload, n, m, dtype)}
    timing = "events" if dev == "cuda" else "host_per_call"
    windows = ROW_BENCH_MS[bool(quick)]
    try:
        gen = torch.Generator(device=dev)
        gen.manual_seed(row_seed(workload, n, dtype))
        inputs = row_peers.make_inputs(workload, n, m, dtype, dev, gen)
        ref = row_peers.reference(workload, inputs)
        sync(dev)
    except Exception as e:  # e.g. out of memory
        log(f"[peers] {workload} {size} {dtype}: could not make the inputs: {e}")
        return [dict(base, name=p[0], median_us=None, timing=None, host_us=None, max_rel_err=None, ok=False,
                     error=f"inputs: {type(e).__name__}: {e}"[:2000]) for p in peers]
    records = []
    for name, mode, dynamic in peers:
        rec = dict(base, name=name, median_us=None, timing=timing, host_us=None, max_rel_err=None, ok=False)
        if mode not in ("eager", "liger"):
            rec["compile"] = {"mode": mode, "dynamic": dynamic}
        if deadline is not None:
            est = (estimator or Estimator()).peer(workload, (n, m), mode, dynamic, commit=False)
            if time.perf_counter() + est > deadline:
                rec["error"] = (f"skipped: it would end past the run's time budget (--time-budget; "
                                f"about {est:.0f} s estimated for it)")
                log(f"[peers] {workload} {size} {dtype} {name}: {rec['error']}")
                records.append(rec)
                continue
        if estimator is not None:
            estimator.commit((n, m), mode, workload)
        log(f"[peers] {workload} {size} {dtype} {name} ...")
        cfn = call = None
        try:
            median = None
            if mode == "eager":
                forms, failed = [], {}
                for form, fn in row_peers.EAGER_FORMS[workload]:
                    try:  # one form failing leaves the other
                        got = fn(*inputs)
                        sync(dev)
                        err, problem = row_peers.check(workload, dtype, got, ref)
                        del got
                        us = time_us((lambda fn=fn: fn(*inputs)), dev, quick, windows)
                    except Exception as e:
                        failed[form] = f"{type(e).__name__}: {e}"[:500]
                        if len(row_peers.EAGER_FORMS[workload]) == 1:
                            raise
                        continue
                    forms.append((us, form, fn, err, problem))
                if not forms:
                    raise RuntimeError("every eager form failed: " + "; ".join(f"{k}: {v}" for k, v in failed.items()))
                good = [f for f in forms if f[4] is None] or forms
                median, form, fn, err, problem = min(good, key=lambda f: f[0])
                rec["form"] = form
                if len(row_peers.EAGER_FORMS[workload]) > 1:
                    rec["forms_us"] = {f[1]: round(f[0], 3) for f in forms}
                    if failed:
                        rec["forms_failed"] = failed
                call = lambda: fn(*inputs)  # noqa: E731
            elif mode == "liger":
                fn = row_peers.liger_fn(workload, n)
                t0 = time.perf_counter()
                got = fn(*inputs)
                sync(dev)
                rec["first_call_s"] = round(time.perf_counter() - t0, 2)  # Triton's JIT compile
                err, problem = row_peers.check(workload, dtype, got, ref)
                del got
                rec["liger_version"] = row_peers.liger_meta().get("version")
                call = lambda: fn(*inputs)  # noqa: E731
            else:
                graphs = mode in GRAPH_MODES and dev == "cuda"
                if graphs:  # fixed input addresses: the graph replays without copying inputs
                    for t in inputs:
                        torch._dynamo.mark_static_address(t)
                torch._dynamo.reset()  # a fresh compile for this peer, shape and type
                skips0 = skips()
                kw = {} if mode == "default" else {"mode": mode}
                cfn = torch.compile(row_peers.COMPILED[workload], dynamic=dynamic, **kw)
                t0 = time.perf_counter()
                for _ in range(3):  # compile; with CUDA graphs: warm-up run, record, replay
                    if graphs:
                        torch.compiler.cudagraph_mark_step_begin()
                    got = tuple(t.clone() for t in as_tuple(cfn(*inputs)))
                sync(dev)
                rec["compile_s"] = round(time.perf_counter() - t0, 2)
                log(f"[peers]   compiled in {rec['compile_s']:.1f} s (mode {mode}, dynamic={dynamic})")
                if graphs and skips() > skips0:
                    rec["note"] = "inductor skipped CUDA graphs (see its log)"
                err, problem = row_peers.check(workload, dtype, got, ref)
                del got
                if graphs:
                    def call():
                        torch.compiler.cudagraph_mark_step_begin()
                        return cfn(*inputs)
                else:
                    call = lambda: cfn(*inputs)  # noqa: E731
            rec["max_rel_err"] = err if err is not None and math.isfinite(err) else None
            rec["ok"] = problem is None
            if problem:
                rec["error"] = problem
                log(f"[peers]   MISMATCH {problem}")
            rec["median_us"] = round(median if median is not None else time_us(call, dev, quick, windows), 3)
            host_us, batches, calls = host_time_us(call, dev, quick, ROW_HOST_BUDGET_S)
            rec.update(host_us=round(host_us, 3), host_repeats=batches, host_calls_per_repeat=calls)
            log(f"[peers]   {rec['median_us']:.1f} us ({timing}), "
                f"{rec['min_bytes'] / rec['median_us'] / 1e6:.2f} TB/s, host {host_us:.1f} us, rel err "
                f"{err if err is not None else float('nan'):.2e}")
        except Exception as e:  # one peer failing must not stop the others
            rec["ok"] = False
            refused = isinstance(e, row_peers.Refused)
            rec["error"] = (str(e) if refused else f"{type(e).__name__}: {e}")[:2000]
            if refused:
                rec["refused"] = True
                log(f"[peers]   REFUSED {rec['error'].splitlines()[0]}")
            else:
                log(f"[peers]   ERROR {rec['error'].splitlines()[0] if rec['error'] else ''}")
                log(traceback.format_exc(limit=3))
        cfn = call = None  # drop the compiled code and its CUDA graphs before the next peer
        records.append(rec)
    del inputs, ref
    return records


# Rough seconds on an H200 (--plan, --time-budget): timing one peer (do_bench, host batches,
# checks), and compiling one by mode; the first compile of a process also imports and warms up
# Inductor and its compile workers; max-autotune of a conv shape (W, H, C, K) that this run has
# already tuned costs less (Triton's kernel cache and Inductor's autotune cache hold its kernels).
EST_TIMING_S = 1.8
EST_COMPILE_S = {"default": 5.0, "reduce-overhead": 6.0, "max-autotune": 45.0}
EST_DYNAMIC_S = 6.0
EST_AUTOTUNE_AGAIN_S = 15.0
EST_FIRST_COMPILE_S = 20.0
# The row reductions (2^26 elements, 0.1 to 1 ms a call): timing one peer with the shorter
# windows and its float64 check; a static compile of one row kernel (Inductor's reduction
# autotuning at the first call included); max-autotune; Liger's Triton JIT (and its first
# import), and a refusal.
EST_ROW_TIMING_S = 0.35
EST_ROW_COMPILE_S = 2.0
EST_ROW_AUTOTUNE_S = 12.0
EST_ROW_LIGER_S = 1.0
EST_LIGER_FIRST_S = 3.0
EST_ROW_REFUSAL_S = 0.1


class Estimator:
    """Seconds each peer should take, in run order (state: what was compiled so far)."""

    def __init__(self):
        self.compiled = False
        self.tuned = set()
        self.liger = False

    def row_peer(self, workload, dims, mode):
        n = dims[0]
        if mode == "eager":
            return EST_ROW_TIMING_S * (2 if workload == "rmsnorm_residual" else 1)
        if mode == "liger":
            if n > 65536:
                return EST_ROW_REFUSAL_S
            return EST_ROW_TIMING_S + EST_ROW_LIGER_S + (0 if self.liger else EST_LIGER_FIRST_S)
        return (EST_ROW_TIMING_S + (EST_ROW_AUTOTUNE_S if mode == "max-autotune" else EST_ROW_COMPILE_S)
                + (0 if self.compiled else EST_FIRST_COMPILE_S))

    def peer(self, workload, dims, mode, dynamic, commit=True):
        if workload in ROWS:
            s = self.row_peer(workload, dims, mode)
            if commit:
                self.commit(dims, mode, workload)
            return s
        s = EST_TIMING_S
        if mode != "eager":
            if mode == "max-autotune":
                s += EST_AUTOTUNE_AGAIN_S if tuple(dims) in self.tuned else EST_COMPILE_S[mode]
            else:
                s += EST_DYNAMIC_S if dynamic else EST_COMPILE_S[mode]
            if not self.compiled:
                s += EST_FIRST_COMPILE_S
        if commit:
            self.commit(dims, mode)
        return s

    def commit(self, dims, mode, workload=None):
        if mode == "liger":
            self.liger = True
            return
        if mode != "eager":
            self.compiled = True
        if mode == "max-autotune" and workload not in ROWS:
            self.tuned.add(tuple(dims))


def estimate_s(plan, dev, skip_autotune, rplan=(), names=None):
    """(seconds, peers) a plan of (workload, size, dims) and a row plan (row_plan) should take
    on an H200."""
    est, total, n = Estimator(), 0.0, 0
    for workload, _, dims in plan:
        for pname, mode, dynamic in peers_for(workload, dev, elements(workload, dims), skip_autotune):
            if names and workload != "copy" and pname not in names:
                continue
            n += 1
            total += est.peer(workload, dims, mode, dynamic)
    for workload, _, rn, rm, _, ps in rplan:
        for _, mode, dynamic in ps:
            n += 1
            total += est.peer(workload, (rn, rm), mode, dynamic)
    return total, n


# ---------------------------------------------------------------- reporting
def machine_meta(dev):
    meta = {"device": dev}
    try:
        import triton
        meta["triton_version"] = triton.__version__
    except Exception:
        meta["triton_version"] = None
    if dev != "cuda":
        return meta
    meta["gpu"] = torch.cuda.get_device_name(0)
    meta["cuda_runtime"] = torch.version.cuda
    meta["driver_version"] = None
    try:
        out = subprocess.run(["nvidia-smi", "--query-gpu=driver_version", "--format=csv,noheader"],
                             capture_output=True, text=True, timeout=30)
        if out.returncode != 0:
            raise RuntimeError(out.stderr)
        meta["driver_version"] = out.stdout.split()[0]
    except Exception:
        try:
            import pynvml
            pynvml.nvmlInit()
            meta["driver_version"] = str(pynvml.nvmlSystemGetDriverVersion())
        except Exception:
            pass
    return meta


def set_floors(records, bw):
    """floor_us = min_bytes / copy bandwidth (bytes per microsecond), for every record so far."""
    for rec in records:
        rec["floor_us"] = round(rec["min_bytes"] / bw, 3) if bw and rec.get("min_bytes") else None


def write_json(path, meta, records):
    if path:
        with open(path, "w") as f:
            json.dump({"meta": meta, "records": records}, f, indent=1, allow_nan=False)


def print_table(records):
    fmt = "{:<16} {:<20} {:<30} {:>11} {:>7} {:>11} {:>11} {:>9} {:>9}"
    print(fmt.format("workload", "size", "name", "median_us", "timing", "host_us", "floor_us",
                     "compile_s", "ok"), flush=True)
    for r in records:
        med = "-" if r.get("median_us") is None else f"{r['median_us']:.1f}"
        host = "-" if r.get("host_us") is None else f"{r['host_us']:.1f}"
        flo = "-" if r.get("floor_us") is None else f"{r['floor_us']:.1f}"
        comp = "-" if r.get("compile_s") is None else f"{r['compile_s']:.1f}"
        size = r["size"] + ("" if r.get("dtype", "float32") == "float32" else f" {r['dtype']}")
        print(fmt.format(r["workload"], size, r["name"], med, r.get("timing") or "-", host, flo,
                         comp, verdict(r)), flush=True)


def verdict(r):
    """yes, MISMATCH (wrong output), SKIPPED (time budget), REFUSED (a peer's documented limit)
    or ERROR."""
    error = r.get("error") or ""
    return ("yes" if r.get("ok") else "REFUSED" if r.get("refused")
            else "MISMATCH" if error.startswith("output mismatch")
            else "SKIPPED" if error.startswith("skipped") else "ERROR")


def copy_bandwidth(rec, bw):
    """The copy bandwidth (bytes per microsecond) after this record: the best copy so far."""
    if rec["workload"] == "copy" and rec["name"] == "torch_eager" and rec.get("median_us"):
        if bw is None or rec["min_bytes"] / rec["median_us"] > bw:
            return rec["min_bytes"] / rec["median_us"]
    return bw


def set_backends():
    """What every timed run here uses: cuDNN autotuning on, TF32 off."""
    torch.backends.cudnn.benchmark = True
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    torch.set_float32_matmul_precision("highest")
    return {"cudnn_benchmark": torch.backends.cudnn.benchmark, "allow_tf32": False}


def merge(out_path, paths):
    """One peers JSON from several runs' (the default run's parts): their records in order, the
    best copy bandwidth of them all (floor_us recomputed with it), and each part's meta."""
    parts = []
    for p in paths:
        with open(p) as f:
            parts.append(json.load(f))
    records = [r for part in parts for r in part["records"]]
    bws = [part["meta"].get("copy_bandwidth_GBps") for part in parts]
    bw = max((b for b in bws if b), default=None)
    set_floors(records, bw * 1e3 if bw else None)
    meta = dict(parts[0]["meta"], copy_bandwidth_GBps=bw, merged_from=list(paths),
                parts=[part["meta"] for part in parts])
    write_json(out_path, meta, records)
    return meta, records


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--workload", action="append", choices=WORKLOADS + ROWS + ["rows"],
                    help="workload to run (repeatable; default: every one but the row reductions; "
                         "rows: the three row reductions). copy always runs first")
    ap.add_argument("--size", action="append",
                    help="size string(s) (N, WxH, WxHxCxK, or NxM for the row reductions); only with "
                         "exactly one --workload, or with row reductions only")
    ap.add_argument("--dtype", action="append", choices=list(rowmath.DTYPES),
                    help="row reductions: storage type(s) to run (repeatable; default: all three)")
    ap.add_argument("--row-n", action="append", type=int, metavar="N",
                    help="row reductions: only the sizes of these row lengths (repeatable)")
    ap.add_argument("--peer", action="append", metavar="NAME",
                    help="only these peers (repeatable: torch_eager, torch_compile, liger, "
                         "torch_compile_max_autotune, ...); copy always runs")
    ap.add_argument("--autotune-n", default=",".join(str(n) for n in AUTOTUNE_N), metavar="N,N",
                    help="row reductions: the row lengths at which max-autotune runs "
                         f"(default {','.join(str(n) for n in AUTOTUNE_N)})")
    ap.add_argument("--quick", action="store_true", help="small sizes only, fewer repetitions")
    ap.add_argument("--device", choices=["cuda", "cpu"], default="cuda",
                    help="cpu only smoke-tests the script (small sizes, no CUDA graphs)")
    ap.add_argument("--skip-autotune", action="store_true",
                    help="leave out torch.compile(mode='max-autotune') (minutes of compiling)")
    ap.add_argument("--time-budget", type=float, default=540, metavar="S",
                    help="skip (with an error record) each peer whose estimated time would end "
                         "the run past S seconds (default 540: 9 minutes; 0: no limit)")
    ap.add_argument("--plan", action="store_true",
                    help="print the peers this run would time and an H200 time estimate; run nothing")
    ap.add_argument("--json", metavar="PATH", help="write the results as JSON here")
    ap.add_argument("--merge", nargs="+", metavar="PART",
                    help="run nothing: merge these runs' JSON files into --json (their records, "
                         "the best copy bandwidth)")
    args = ap.parse_args(argv)
    if args.merge:
        if not args.json:
            ap.error("--merge needs --json (the merged file)")
        meta, records = merge(args.json, args.merge)
        print_table(records)
        log(f"[peers] merged {len(args.merge)} files, {len(records)} records, into {args.json}")
        return 0
    selected = list(dict.fromkeys(w for x in (args.workload or WORKLOADS)
                                  for w in (ROWS if x == "rows" else [x])))
    rows_sel = [w for w in selected if w in ROWS]
    others = [w for w in selected if w not in ROWS]
    if args.size and len(selected) != 1 and [w for w in others if w != "copy"]:
        ap.error("--size needs exactly one --workload, or row reductions only")
    try:
        autotune_n = tuple(int(v) for v in args.autotune_n.split(",") if v.strip())
    except ValueError:
        ap.error(f"--autotune-n {args.autotune_n!r}: row lengths separated by commas")
    names = set(args.peer) if args.peer else None
    dev = args.device

    sizes = SIZES[dev]["quick" if args.quick else "full"]
    plan = [(w, s) for w in others for s in (args.size if args.size and not rows_sel else sizes[w])]
    if not any(w == "copy" for w, _ in plan):  # the floors need this run's copy bandwidth
        plan.insert(0, ("copy", sizes["copy"][0]))
    plan.sort(key=lambda p: p[0] != "copy")
    try:  # fail on a bad size before any work
        parsed = [(w,) + parse_size(w, s) for w, s in plan]
        row_sizes = {w: args.size if args.size else sizes[w] for w in rows_sel}
        for w, ss in row_sizes.items():
            for sz in ss:
                parse_size(w, sz)
        rplan = row_plan(rows_sel, row_sizes, args.dtype or list(rowmath.DTYPES), args.row_n, names,
                         args.skip_autotune, autotune_n)
    except ValueError as e:
        ap.error(str(e))

    def peers_of(workload, dims):
        ps = peers_for(workload, dev, elements(workload, dims), args.skip_autotune)
        return ps if workload == "copy" or not names else [p for p in ps if p[0] in names]
    parsed = [p for p in parsed if peers_of(p[0], p[2])]
    est, n_peers = estimate_s(parsed, dev, args.skip_autotune, rplan, names)
    if args.plan:
        for workload, size, dims in parsed:
            print(f"{workload:<16} {size:<20} {' '.join(p[0] for p in peers_of(workload, dims))}")
        for workload, size, _, _, dtype, ps in rplan:
            print(f"{workload:<16} {size + ' ' + dtype:<20} {' '.join(p[0] for p in ps)}")
        print(f"{n_peers} peers; about {est / 60:.1f} minutes on an H200 (estimate)")
        return 0
    if dev == "cuda" and not torch.cuda.is_available():
        ap.error("CUDA is not available (use --device cpu for a smoke test)")
    backends = set_backends()

    meta = {"date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
            **machine_meta(dev), "torch_version": torch.__version__,
            "command": shlex.join([sys.executable] + sys.argv), "quick": args.quick,
            **backends, "skip_autotune": args.skip_autotune, "time_budget_s": args.time_budget,
            "estimate_s": round(est), "copy_bandwidth_GBps": None,
            "host_timing": {"min_batch_s": MIN_BATCH_S, "min_batches": MIN_BATCHES,
                            "max_batches": MAX_BATCHES, "budget_s": 0.1 if args.quick else 0.4}}
    if rplan:
        meta["rows"] = {"dtypes": args.dtype or list(rowmath.DTYPES), "row_n": args.row_n,
                        "peers": sorted(names) if names else None, "autotune_n": list(autotune_n),
                        "do_bench_ms": list(ROW_BENCH_MS[bool(args.quick)]),
                        "host_budget_s": ROW_HOST_BUDGET_S, "tolerance": rowmath.TOLERANCE,
                        "check": "relative L2 error against float64 from the rounded inputs; h bit for bit "
                                 "against torch's x + residual"}
        if any(p[0] == "liger" for c in rplan for p in c[-1]):
            import row_peers
            try:
                row_peers.load_liger(log)
            except RuntimeError as e:
                log(f"[peers] {e}: every liger record will say so")
            meta["liger"] = row_peers.liger_meta()
    log(f"[peers] {meta}")
    log(f"[peers] {n_peers} peers, about {est / 60:.1f} minutes on an H200 (estimate)")
    records, bw = [], None  # bw in bytes per microsecond
    t_start = time.perf_counter()
    deadline = t_start + args.time_budget if args.time_budget > 0 else None
    estimator = Estimator()
    with torch.no_grad():
        for workload, size, dims in parsed:
            for rec in run_one(workload, size, dims, dev, args.quick, args.skip_autotune,
                               peers=peers_of(workload, dims) if names else None,
                               deadline=deadline, estimator=estimator):
                bw = copy_bandwidth(rec, bw)
                meta["copy_bandwidth_GBps"] = round(bw / 1e3, 2) if bw else None
                records.append(rec)
                set_floors(records, bw)
                meta["elapsed_s"] = round(time.perf_counter() - t_start, 1)
                write_json(args.json, meta, records)
            torch._dynamo.reset()  # drop compiled code and CUDA graphs before the next workload
            if dev == "cuda":
                torch.cuda.empty_cache()
        for workload, size, n, m, dtype, ps in rplan:
            for rec in run_rows(workload, size, n, m, dtype, dev, args.quick, ps, deadline=deadline,
                                estimator=estimator):
                records.append(rec)
                set_floors(records, bw)
                meta["elapsed_s"] = round(time.perf_counter() - t_start, 1)
                write_json(args.json, meta, records)
            torch._dynamo.reset()
            if dev == "cuda":
                torch.cuda.empty_cache()
    if rplan and "liger" in meta:
        import row_peers
        meta["liger"] = row_peers.liger_meta()
    set_floors(records, bw)
    meta["elapsed_s"] = round(time.perf_counter() - t_start, 1)
    write_json(args.json, meta, records)
    print_table(records)
    bad = [r for r in records if not r.get("ok")]
    compile_s = sum(r.get("compile_s") or 0 for r in records)
    log(f"[peers] done in {meta['elapsed_s']:.0f} s ({compile_s:.0f} s compiling): "
        f"{len(records)} records, {len(bad)} not ok" + (f"; JSON in {args.json}" if args.json else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
