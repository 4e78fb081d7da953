#!/usr/bin/env python3
"""fuselab's variants called from PyTorch through the Python package, timed as peers/peers.py
times the peers.

Run on the GPU machine, with the carried libfuselab.so (python/fuselab/libfuselab.so, or
FUSELAB_LIBRARY=PATH):

    python3 peers/torch_bench.py --json torch.json              # both parts, default sizes
    python3 peers/torch_bench.py --part graph --json g.json     # CUDA graphs only
    python3 peers/torch_bench.py --part torch --workload conv_relu_pool --json c.json
    python3 peers/torch_bench.py --device cpu --quick           # smoke test without a GPU

Two parts, the graph part first (in a fresh process Halide's device-allocation cache is short;
see below):

kind "fuselab_graph": CUDA-graph capture of fuselab calls on a non-default stream: one fused
  kernel (add_relu fused, pointwise_chain fused) and the unfused multi-kernel strategies
  (pointwise_chain unfused: 10 kernels, grouped2: 5; add_relu unfused: 2), at a launch-bound size
  (add_relu 2^12, pointwise_chain 2^16) and at 2^28. Everything of one variant runs on one side
  stream s: a direct call, checked against float64; the direct calls timed (name: the schedule,
  "graph": false); one more call on s and a synchronize (Halide keys its cache of intermediates'
  device memory by stream, and a capture can neither allocate nor free device memory), the
  capture (torch.cuda.graph(g, stream=s)); new input data copied into the static inputs, a
  replay, checked against float64; the replays timed (name: the schedule + "_graph",
  "graph": true). Beside them torch eager and torch.compile(mode="reduce-overhead") of the same
  math (peers/peers.py's functions, kind "peer", on the default stream).
kind "fuselab_torch": every workload fuselab.workloads() lists, at its default CUDA sizes
  (cuda_sizes; --quick: small ones), every CUDA variant of it (Halide's and the hand-written
  seed_cuda ones) called on torch CUDA tensors with its outputs preallocated,
  fuselab.kernel(p, s, "cuda")(**inputs, **outputs), on the default stream. Autoscheduled
  variants may refuse a size: the record keeps the error ("refused": true) and the run goes on.

Each record is checked before it is timed: outputs are poisoned with NaN, the call is made, and
every output is compared with the float64 reference of tests/reference.py (numpy, on the
inputs' .cpu().numpy(); 1-D workloads in chunks on threads, exact as they are elementwise) by
reference.error (||out - ref|| / max(||ref||, sqrt(n)), computed on the device in float64),
within the workload's tolerance. Then the two measures of peers/peers.py (its own functions):
median_us: triton's do_bench median with its L2 flush (timing "events"; on the CPU the median of
perf_counter per call, "host_per_call"), and host_us: wall clock per call over batches of
back-to-back calls of at least 20 ms, each ending with a device sync. A `copy` peer runs first:
floor_us = min_bytes / its bandwidth, as in peers.py.

How long on an H200 (estimated): the graph part ~1.5 minutes (20 fuselab records and 8 peer
records at ~1.5 s each, 4 reduce-overhead compiles at ~5-10 s, the first ~20 s, float64
references of two 2^28 workloads ~10 s), the torch part ~2.5 minutes (68 variant-sizes at
~1.5 s each, their first calls JIT-compile PTX, float64 references ~40 s, most of it the convs
and stencils): ~4 minutes in all. --time-budget (default 300 s) skips, with an error record,
whatever would start after it. --part graph / --part torch split the run.

Output: a table on stdout, progress on stderr, and with --json PATH a JSON file
{"meta": {...}, "records": [{workload, size, name, kind, median_us, timing, host_us,
host_repeats, host_calls_per_repeat, min_bytes, floor_us, ok, max_rel_err, error?, ...}, ...]}
(peers.py's schema; fuselab records also carry variant, variant_kind, autoscheduler, kernels,
stream, graph, refused), rewritten after every record.
"""
import argparse
import concurrent.futures
import datetime
import json
import math
import os
import shlex
import sys
import time
import traceback

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
for _p in (os.path.join(ROOT, "tests"), os.path.join(ROOT, "python"), HERE):
    if _p not in sys.path:
        sys.path.insert(0, _p)
import peers  # noqa: E402  (peers/peers.py: the timing, the copy floor, the math of the peers)
import fuselab  # noqa: E402
import reference  # noqa: E402  (tests/reference.py: float64 references)

N28 = str(2 ** 28)
# The graph part: (pipeline, schedules, sizes; quick sizes).
GRAPH = [("add_relu", ["fused", "unfused"], ["4096", N28], ["4096"]),
         ("pointwise_chain", ["fused", "unfused", "grouped2"], ["65536", N28], ["65536"])]
# Small sizes by size format, for --quick (autoscheduled variants may refuse them).
QUICK = {"cuda": {"N": ["1048576"], "WxH": ["1024x768"],
                  "WxHxCxK": ["320x240x3x16", "256x256x64x64"]},
         "cpu": {"N": ["65536"], "WxH": ["256x192"], "WxHxCxK": ["64x48x3x16"]}}


def log(*a):
    print(*a, file=sys.stderr, flush=True)


# ---------------------------------------------------------------- inputs and references
def reference_outputs(p, inputs, threads):
    """p.reference(inputs), for 1-D (elementwise) pipelines in chunks on threads (numpy releases
    the GIL), which is exact: every output element depends on the same element of the inputs."""
    n = next(iter(inputs.values())).shape[0]
    if p.size_format != "N" or threads < 2 or n < (1 << 20):
        return p.reference(inputs)
    bounds = np.linspace(0, n, threads + 1).astype(np.int64)
    parts = [slice(int(a), int(b)) for a, b in zip(bounds[:-1], bounds[1:]) if b > a]
    with concurrent.futures.ThreadPoolExecutor(len(parts)) as ex:
        outs = list(ex.map(lambda sl: p.reference({k: v[sl] for k, v in inputs.items()}), parts))
    return {o: np.concatenate([r[o] for r in outs]) for o in p.outputs}


class Case:
    """One (pipeline, size): fresh random float32 inputs in [-1, 1] on the device, by the
    variants' argument names, and the float64 reference of every output (on the device)."""

    def __init__(self, pipeline, size, dev, threads):
        self.p = reference.PIPELINES[pipeline]
        self.size = size
        dims = reference.parse_size(self.p, size)
        self.inputs = {n: torch.empty(s, dtype=torch.float32, device=dev).uniform_(-1.0, 1.0)
                       for n, s in self.p.input_shapes(dims).items()}
        self.out_shapes = self.p.output_shapes(dims)
        t0 = time.perf_counter()
        host = {n: t.cpu().numpy() for n, t in self.inputs.items()}
        ref = reference_outputs(self.p, host, threads)
        del host
        self.ref = {o: torch.from_numpy(np.ascontiguousarray(ref[o], dtype=np.float64)).to(dev)
                    for o in self.p.outputs}
        del ref
        self.ref_finite = {o: bool(torch.isfinite(r).all()) for o, r in self.ref.items()}
        self.ref_norm = {o: float(torch.linalg.vector_norm(r)) for o, r in self.ref.items()}
        self.ref_s = round(time.perf_counter() - t0, 2)
        self.min_bytes = 4 * (sum(t.numel() for t in self.inputs.values()) +
                              sum(math.prod(s) for s in self.out_shapes.values()))

    def outputs(self, dev):
        """Fresh outputs, poisoned with NaN: an element left unwritten fails the check."""
        return {o: torch.full(s, float("nan"), dtype=torch.float32, device=dev)
                for o, s in self.out_shapes.items()}

    def error(self, outs):
        """The largest reference.error over the outputs, computed on the device in float64."""
        worst = 0.0
        for o, ref in self.ref.items():
            got = outs[o]
            if tuple(got.shape) != tuple(ref.shape):
                return math.inf
            g = got.detach().to(device=ref.device, dtype=torch.float64)
            if not (self.ref_finite[o] and bool(torch.isfinite(g).all())):
                return math.inf
            n = ref.numel()
            if n == 0:
                continue
            num = float(torch.linalg.vector_norm(g - ref))
            del g
            worst = max(worst, num / max(self.ref_norm[o], math.sqrt(n)))
        return worst


class Cases:
    """Cases made on demand and kept until dropped (the graph part's sizes are default sizes
    too, so the torch part reuses their inputs and references)."""

    def __init__(self, dev, threads):
        self.dev, self.threads, self.cases = dev, threads, {}

    def get(self, pipeline, size):
        key = (pipeline, size)
        if key not in self.cases:
            log(f"[torch_bench] {pipeline} {size}: inputs and float64 reference ...")
            self.cases[key] = Case(pipeline, size, self.dev, self.threads)
            log(f"[torch_bench]   reference in {self.cases[key].ref_s:.1f} s")
        return self.cases[key]

    def drop(self, pipeline, size):
        self.cases.pop((pipeline, size), None)
        if self.dev == "cuda":
            torch.cuda.synchronize()
            torch.cuda.empty_cache()


# ---------------------------------------------------------------- records
def sync(dev):
    if dev == "cuda":
        torch.cuda.synchronize()


def new_record(workload, size, name, kind, dev, v=None, min_bytes=None):
    rec = {"workload": workload, "size": size, "name": name, "kind": kind, "median_us": None,
           "timing": "events" if dev == "cuda" else "host_per_call", "host_us": None,
           "min_bytes": min_bytes, "max_rel_err": None, "ok": False}
    if v is not None:
        rec.update(variant=v["name"], variant_kind=v["kind"], autoscheduler=v["autoscheduler"],
                   kernels=v.get("kernels"))
    return rec


def check(rec, case, outs, tol):
    err = case.error(outs)
    rec["max_rel_err"] = err if math.isfinite(err) else None  # JSON has no inf/NaN
    rec["ok"] = err <= tol
    if not rec["ok"]:
        why = f"{err:.3g}" if math.isfinite(err) else "NaN, inf or wrong shape"
        rec["error"] = f"output mismatch: reference.error {why} > {tol:g}"
        log(f"[torch_bench]   MISMATCH {rec['error']}")
    return err


def timed(rec, call, dev, quick):
    """peers.py's two measures of call()."""
    rec["median_us"] = round(peers.time_us(call, dev, quick), 3)
    host_us, batches, calls = peers.host_time_us(call, dev, quick)
    rec.update(host_us=round(host_us, 3), host_repeats=batches, host_calls_per_repeat=calls)
    log(f"[torch_bench]   {rec['median_us']:.1f} us ({rec['timing']}), host {host_us:.1f} us"
        + (f", error {rec['max_rel_err']:.2e}" if rec.get("max_rel_err") is not None else ""))


def fail(rec, e):
    rec["ok"] = False
    rec["error"] = (str(e) if isinstance(e, fuselab.Error) else f"{type(e).__name__}: {e}")[:2000]
    if isinstance(e, fuselab.Error) and ("refuses this size" in str(e)
                                         or "runs one shape only" in str(e)):
        rec["refused"] = True
        log(f"[torch_bench]   refused: {rec['error'][:160]}")
    else:
        log(f"[torch_bench]   ERROR {rec['error'].splitlines()[0] if rec['error'] else ''}")
        if not isinstance(e, fuselab.Error):
            log(traceback.format_exc(limit=4))


def device_alive(dev):
    """False after a sticky CUDA error (an illegal address, say): nothing after it would run."""
    if dev != "cuda":
        return True
    try:
        torch.cuda.synchronize()
        return True
    except Exception as e:
        log(f"[torch_bench] the CUDA context is broken ({type(e).__name__}: {e}); stopping")
        return False


def best_variants(path):
    """{(workload, size, schedule)} of the fastest correct fuselab variant of each (workload,
    size) in a `fuselab bench --json` file."""
    best = {}
    for r in json.load(open(path))["records"]:
        if r.get("kind") not in ("fuselab", "seed_cuda") or not r.get("ok") or not r.get("median_us"):
            continue
        key = (r["workload"], r["size"])
        if key not in best or r["median_us"] < best[key]["median_us"]:
            best[key] = r
    return {(w, s, r["name"]) for (w, s), r in best.items()}


class Run:
    """Records, the JSON file, the copy bandwidth, and the time budget."""

    def __init__(self, args, meta):
        self.args, self.meta, self.records, self.bw = args, meta, [], None
        self.t0 = time.perf_counter()
        self.best = best_variants(args.best) if args.best else None

    def over_budget(self):
        b = self.args.time_budget
        return b > 0 and time.perf_counter() - self.t0 > b

    def skip(self, rec):
        rec["error"] = f"skipped: past the run's time budget (--time-budget {self.args.time_budget:g} s)"
        log(f"[torch_bench] {rec['workload']} {rec['size']} {rec['name']}: {rec['error']}")
        self.emit(rec)

    def emit(self, rec):
        self.bw = peers.copy_bandwidth(rec, self.bw)
        self.meta["copy_bandwidth_GBps"] = round(self.bw / 1e3, 2) if self.bw else None
        self.records.append(rec)
        peers.set_floors(self.records, self.bw)
        self.meta["elapsed_s"] = round(time.perf_counter() - self.t0, 1)
        peers.write_json(self.args.json, self.meta, self.records)


def tolerance(pipeline):
    w = next((w for w in fuselab.workloads() if w["pipeline"] == pipeline), None)
    return w["tolerance"] if w else reference.PIPELINES[pipeline].tolerance


def find_variant(pipeline, schedule, target):
    return next((v for v in fuselab.variants() if (v["pipeline"], v["schedule"], v["target"]) ==
                 (pipeline, schedule, target)), None)


def same_arguments(k, case):
    if set(k.inputs) != set(case.inputs) or set(k.outputs) != set(case.out_shapes):
        raise fuselab.Error(f"{k.name}: takes {k.inputs} -> {k.outputs}, but tests/reference.py "
                            f"names {list(case.inputs)} -> {list(case.out_shapes)}")


# ---------------------------------------------------------------- the graph part
def graph_variant(run, cases, pipeline, size, schedule, stream, dev, target):
    """Direct calls on `stream`, then a CUDA graph captured on it and replayed: two records."""
    quick = run.args.quick
    v = find_variant(pipeline, schedule, target)
    direct = new_record(pipeline, size, schedule, "fuselab_graph", dev, v)
    graphed = new_record(pipeline, size, schedule + "_graph", "fuselab_graph", dev, v)
    direct.update(graph=False, stream="side" if stream is not None else "default")
    graphed.update(graph=True, stream="side")
    if run.over_budget():
        run.skip(direct)
        if dev == "cuda":
            run.skip(graphed)
        return
    tol = tolerance(pipeline)
    try:
        if v is None:
            raise fuselab.Error(f"no variant {pipeline}/{schedule}/{target} in this build")
        case = cases.get(pipeline, size)
        direct["min_bytes"] = graphed["min_bytes"] = case.min_bytes
        k = fuselab.kernel(pipeline, schedule, target)
        same_arguments(k, case)
    except Exception as e:
        fail(direct, e)
        run.emit(direct)
        if dev == "cuda":
            graphed["error"] = direct["error"]
            run.emit(graphed)
        return

    log(f"[torch_bench] {pipeline} {size} {schedule} (direct, on a side stream) ...")
    # Static inputs holding other data than the case's: the replay's check proves it reads what
    # is copied into them.
    static = {n: torch.empty_like(t).uniform_(-1.0, 1.0) for n, t in case.inputs.items()}
    outs = case.outputs(dev)
    ok_direct = False
    try:
        if stream is None:  # the CPU: no streams, no graphs
            k(**case.inputs, **outs)
            check(direct, case, outs, tol)
            timed(direct, lambda: k(**static, **outs), dev, quick)
        else:
            stream.wait_stream(torch.cuda.current_stream())  # inputs made on the default stream
            with torch.cuda.stream(stream):
                k(**case.inputs, **outs)
                stream.synchronize()
                check(direct, case, outs, tol)
                timed(direct, lambda: k(**static, **outs), dev, quick)
        ok_direct = True
    except Exception as e:
        fail(direct, e)
    run.emit(direct)
    if stream is None:
        return
    if not ok_direct:
        graphed["error"] = "not captured: the direct call failed: " + (direct.get("error") or "")
        run.emit(graphed)
        return
    if not device_alive(dev):
        raise RuntimeError("CUDA context broken")

    log(f"[torch_bench] {pipeline} {size} {schedule}_graph (captured on the side stream) ...")
    g = None
    try:
        with torch.cuda.stream(stream):
            k(**static, **outs)  # warm-up on the capture stream: its intermediates are cached
            stream.synchronize()
            g = torch.cuda.CUDAGraph()
            t0 = time.perf_counter()
            with torch.cuda.graph(g, stream=stream):
                k(**static, **outs)
            graphed["capture_s"] = round(time.perf_counter() - t0, 3)
            for n, t in static.items():  # new data into the static inputs, then a replay
                t.copy_(case.inputs[n])
            for t in outs.values():
                t.fill_(float("nan"))
            g.replay()
            stream.synchronize()
            check(graphed, case, outs, tol)
            timed(graphed, g.replay, dev, quick)
    except Exception as e:
        fail(graphed, e)
    finally:
        sync(dev)
        del g  # the graph holds Halide's cached intermediates' addresses: gone before anything else
    run.emit(graphed)


def graph_part(run, cases, dev, target):
    stream = torch.cuda.Stream() if dev == "cuda" else None
    if dev == "cuda" and not run.meta["device_allocation_reuse"]:
        log("[torch_bench] FUSELAB_DEVICE_ALLOCATION_REUSE=0: Halide allocates and frees every "
            "intermediate on every call, which a capture cannot do: the multi-kernel graphs fail")
    for pipeline, schedules, sizes, quick_sizes in GRAPH:
        if run.args.workload and pipeline not in run.args.workload:
            continue
        for size in (quick_sizes if run.args.quick else sizes):
            for schedule in schedules:
                graph_variant(run, cases, pipeline, size, schedule, stream, dev, target)
                if not device_alive(dev):
                    return False
            # The same math in PyTorch: eager and torch.compile(mode="reduce-overhead").
            if run.over_budget():
                for name, _, _ in (peers.EAGER, peers.REDUCE_OVERHEAD):
                    run.skip(new_record(pipeline, size, name, "peer", dev))
                continue
            _, dims = peers.parse_size(pipeline, size)
            with torch.no_grad():
                for rec in peers.run_one(pipeline, size, dims, dev, run.args.quick,
                                         peers=[peers.EAGER, peers.REDUCE_OVERHEAD]):
                    rec["stream"] = "default"
                    run.emit(rec)
            torch._dynamo.reset()  # drop the compiled code and torch's CUDA graphs
            if not device_alive(dev):
                return False
    return True


# ---------------------------------------------------------------- the torch part
def sizes_for(w, dev, quick):
    return QUICK[dev][w["size_format"]] if quick else w[f"{dev}_sizes"]


def torch_variant(run, case, v, dev):
    pipeline, size = v["pipeline"], case.size
    rec = new_record(pipeline, size, v["schedule"], "fuselab_torch", dev, v, case.min_bytes)
    rec["stream"] = "default"
    if run.over_budget():
        run.skip(rec)
        return
    log(f"[torch_bench] {pipeline} {size} {v['schedule']} ...")
    try:
        k = fuselab.kernel(pipeline, v["schedule"], v["target"])
        same_arguments(k, case)
        outs = case.outputs(dev)
        k(**case.inputs, **outs)
        sync(dev)
        check(rec, case, outs, tolerance(pipeline))
        timed(rec, lambda: k(**case.inputs, **outs), dev, run.args.quick)
    except Exception as e:
        fail(rec, e)
    run.emit(rec)


def torch_part(run, cases, dev, target):
    for w in fuselab.workloads():
        pipeline = w["pipeline"]
        if run.args.workload and pipeline not in run.args.workload:
            continue
        vs = [v for v in fuselab.variants() if v["pipeline"] == pipeline and v["target"] == target]
        if not vs:
            continue
        for size in sizes_for(w, dev, run.args.quick):
            if run.best is not None:  # --best: only the direct call's fastest variant here
                vs = [v for v in fuselab.variants() if v["target"] == target and
                      v["pipeline"] == pipeline and (pipeline, size, v["schedule"]) in run.best]
                if not vs:
                    continue
            try:
                if pipeline not in reference.PIPELINES:
                    raise KeyError(f"tests/reference.py has no float64 reference of {pipeline}")
                case = None if run.over_budget() else cases.get(pipeline, size)
            except Exception as e:
                for v in vs:
                    rec = new_record(pipeline, size, v["schedule"], "fuselab_torch", dev, v)
                    fail(rec, e)
                    run.emit(rec)
                continue
            for v in vs:
                if case is None:
                    run.skip(new_record(pipeline, size, v["schedule"], "fuselab_torch", dev, v))
                    continue
                torch_variant(run, case, v, dev)
                if not device_alive(dev):
                    return False
            cases.drop(pipeline, size)
    return True


# ---------------------------------------------------------------- main
def print_table(records):
    fmt = "{:<16} {:<16} {:<30} {:<13} {:>10} {:>13} {:>10} {:>10} {:>9}"
    print(fmt.format("workload", "size", "name", "kind", "median_us", "timing", "host_us",
                     "floor_us", "ok"), flush=True)
    for r in records:
        def num(key):
            return "-" if r.get(key) is None else f"{r[key]:.1f}"
        ok = "REFUSED" if r.get("refused") else peers.verdict(r)
        print(fmt.format(r["workload"], r["size"], r["name"], r["kind"], num("median_us"),
                         r.get("timing") or "-", num("host_us"), num("floor_us"), ok), flush=True)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--part", choices=["all", "graph", "torch"], default="all",
                    help="graph: CUDA graphs of fuselab calls (fuselab_graph); torch: every variant "
                         "on torch tensors (fuselab_torch); all: both, the graph part first")
    ap.add_argument("--workload", action="append",
                    help="only this workload (repeatable; default: all)")
    ap.add_argument("--quick", action="store_true", help="small sizes, fewer repetitions")
    ap.add_argument("--device", choices=["cuda", "cpu"], default="cuda",
                    help="cpu: CPU variants on CPU tensors, no graphs (a smoke test)")
    ap.add_argument("--time-budget", type=float, default=300, metavar="S",
                    help="skip (with an error record) whatever would start after S seconds "
                         "(default 300; 0: no limit)")
    ap.add_argument("--seed", type=int, default=None, help="torch's random seed (default: random)")
    ap.add_argument("--best", metavar="BENCH_JSON",
                    help="fuselab_torch part: only the fastest fuselab variant of each (workload, "
                         "size) in this `fuselab bench --json` file (the direct calls to compare)")
    ap.add_argument("--json", metavar="PATH", help="write the results as JSON here")
    args = ap.parse_args(argv)
    dev = args.device
    target = "cuda" if dev == "cuda" else "cpu"
    if dev == "cuda" and not torch.cuda.is_available():
        ap.error("PyTorch sees no CUDA device (use --device cpu for a smoke test)")
    status = fuselab.cuda_status()
    if dev == "cuda" and not status["usable"]:
        ap.error(f"fuselab sees no usable CUDA device: {status['reason']}")
    backends = peers.set_backends()
    seed = args.seed if args.seed is not None else int.from_bytes(os.urandom(4), "little")
    torch.manual_seed(seed)
    threads = max(1, min(16, os.cpu_count() or 1))

    meta = {"date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
            **peers.machine_meta(dev), "torch_version": torch.__version__,
            "numpy_version": np.__version__, "fuselab_library": fuselab._lib.LIBRARY_PATH,
            "fuselab_cuda": status, "command": shlex.join([sys.executable] + sys.argv),
            "part": args.part, "quick": args.quick, "seed": seed, **backends,
            "time_budget_s": args.time_budget, "reference_threads": threads,
            "device_allocation_reuse": os.environ.get("FUSELAB_DEVICE_ALLOCATION_REUSE") != "0",
            "error_measure": "tests/reference.py error(): ||out - ref|| / max(||ref||, sqrt(n)), "
                             "ref in float64 (peer records: peers.py's ||out - ref|| / ||ref||)",
            "copy_bandwidth_GBps": None,
            "host_timing": {"min_batch_s": peers.MIN_BATCH_S, "min_batches": peers.MIN_BATCHES,
                            "max_batches": peers.MAX_BATCHES,
                            "budget_s": 0.1 if args.quick else 0.4}}
    log(f"[torch_bench] {meta}")
    run = Run(args, meta)
    cases = Cases(dev, threads)
    sizes = peers.SIZES[dev]["quick" if args.quick else "full"]
    with torch.no_grad():
        for rec in peers.run_one("copy", sizes["copy"][0], [int(sizes["copy"][0])], dev,
                                 args.quick):
            run.emit(rec)
    alive = True
    if args.part in ("all", "graph"):
        alive = graph_part(run, cases, dev, target)
    if alive and args.part in ("all", "torch"):
        alive = torch_part(run, cases, dev, target)
    meta["elapsed_s"] = round(time.perf_counter() - run.t0, 1)
    peers.write_json(args.json, meta, run.records)
    print_table(run.records)
    bad = [r for r in run.records if not r.get("ok") and not r.get("refused")]
    refused = [r for r in run.records if r.get("refused")]
    log(f"[torch_bench] done in {meta['elapsed_s']:.0f} s: {len(run.records)} records, "
        f"{len(refused)} refused (autoscheduled), {len(bad)} other not ok"
        + (f"; JSON in {args.json}" if args.json else ""))
    return 0 if alive else 1


if __name__ == "__main__":
    sys.exit(main())
