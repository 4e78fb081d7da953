#!/usr/bin/env python3
"""Host cost per call of each way to call add_relu from Python, all in one process and run: what a
launch-bound call (N = 4096, a 4 us kernel on the H200) costs its caller.

    python3 peers/call_overhead.py --json call_overhead.json [--device cuda|cpu] [--n 4096]

Each path is called `--calls` times back to back after a warm-up, then the device is synchronized;
the host wall clock over the loop divided by the calls is one sample; each repeat takes one sample
of every path in turn, and the record holds the median of `--repeats` samples (kind
"call_overhead", `name` the path, `host_us`). Paths:
torch.ops.fuselab.add_relu (the pipeline, its output allocated), torch.ops.fuselab.add_relu__fused__T
(one strategy, output allocated), fuselab.kernel (pipeline and strategy, output given),
fuselab_invoke through ctypes with its arguments described once (the C ABI's own cost), and the
peers: torch eager relu(add) (two ops), one torch.add, torch.empty_like; then a row pipeline,
softmax over [4, 1024] bfloat16, through its op and fuselab.kernel, beside torch.softmax. The
torch ops run their C++ kernels (fuselab/_torch_ops.cpp) unless FUSELAB_TORCH_EXT=0 or they
cannot be built: the meta's torch_ops_backend says which.
"""
import argparse
import ctypes
import json
import os
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "python"))

import torch  # noqa: E402

import fuselab  # noqa: E402
import fuselab.torch_ops  # noqa: E402,F401
from fuselab import _lib  # noqa: E402


def per_call_us(paths, calls, repeats, sync):
    """{name: (median, samples)}: each repeat times every path's loop in turn (round robin), so
    that a drift of the host's speed (other tenants, clocks) reaches every path alike and the
    same-run ratios hold (on the H200's host, one path's time moved by a third between processes:
    the op 9.7 to 12.4 us and eager torch.add 7.4 to 10.6, s22 b/)."""
    for _, fn in paths:
        for _ in range(max(50, calls // 10)):
            fn()
    sync()
    samples = {name: [] for name, _ in paths}
    for _ in range(repeats):
        for name, fn in paths:
            t0 = time.perf_counter()
            for _ in range(calls):
                fn()
            sync()
            samples[name].append((time.perf_counter() - t0) / calls * 1e6)
    return {name: (statistics.median(s), s) for name, s in samples.items()}


def c_abi_call(variant_index, a, b, out, stream):
    """fuselab_invoke with its fuselab_arg array built once: the C ABI alone, no Python layer."""
    lib = _lib.LIB
    args = (_lib.Arg * 3)()
    keep = []
    for i, (name, t) in enumerate((("a", a), ("b", b), ("out", out))):
        shape = (ctypes.c_int64 * 1)(t.shape[0])
        strides = (ctypes.c_int64 * 1)(1)
        keep += [shape, strides]
        args[i].name, args[i].data = name.encode(), t.data_ptr()
        args[i].device, args[i].ndim = (1 if t.is_cuda else 0), 1
        args[i].shape, args[i].strides, args[i].type_code, args[i].bits = shape, strides, 2, 32
    err = ctypes.create_string_buffer(1024)

    def call():
        if lib.fuselab_invoke(variant_index, 3, args, stream, err, len(err)) != 0:
            raise fuselab.Error(err.value.decode())
    call.keep = keep
    return call


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--json", required=True)
    ap.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    ap.add_argument("--n", type=int, default=4096)
    ap.add_argument("--calls", type=int, default=2000)
    ap.add_argument("--repeats", type=int, default=7)
    opt = ap.parse_args()
    dev, target = opt.device, "cuda" if opt.device == "cuda" else "cpu"
    sync = torch.cuda.synchronize if dev == "cuda" else (lambda: None)
    g = torch.Generator(device=dev).manual_seed(int.from_bytes(os.urandom(4), "little"))
    a = torch.rand(opt.n, device=dev, generator=g) * 2 - 1
    b = torch.rand(opt.n, device=dev, generator=g) * 2 - 1
    out = torch.full_like(a, float("nan"))
    ref = torch.relu(a.double() + b.double())

    by_strategy = fuselab.kernel("add_relu", "fused", target=target)
    try:  # the pipeline-level paths, where this package has them
        by_pipeline = fuselab.kernel("add_relu", target=target)
    except TypeError:
        by_pipeline = None
    has_pipeline_op = hasattr(torch.ops.fuselab, "add_relu") and by_pipeline is not None
    variant_op = getattr(torch.ops.fuselab, f"add_relu__fused__{target}")
    index = next(i for i, v in enumerate(fuselab.variants())
                 if (v["pipeline"], v["schedule"], v["target"]) == ("add_relu", "fused", target))
    stream = torch.cuda.current_stream().cuda_stream if dev == "cuda" else None
    paths = ([("torch.ops.fuselab.add_relu", lambda: torch.ops.fuselab.add_relu(a, b)),
              ("fuselab.kernel(add_relu)", lambda: by_pipeline(a=a, b=b, out=out))]
             if has_pipeline_op else []) + [
        (f"torch.ops.fuselab.add_relu__fused__{target}", lambda: variant_op(a, b)),
        ("fuselab.kernel(add_relu, fused)", lambda: by_strategy(a=a, b=b, out=out)),
        ("invoke (C ABI, ctypes)", c_abi_call(index, a, b, out, stream)),
        ("torch_eager_op relu(add) (two ops)", lambda: torch.relu(torch.add(a, b))),
        ("torch_eager_op add (one op)", lambda: torch.add(a, b)),
        ("torch.empty_like", lambda: torch.empty_like(a)),
    ]
    # Every fuselab path computes the right thing before it is timed.
    checks = {"variant op": lambda: variant_op(a, b)}
    if has_pipeline_op:
        checks["torch.ops.fuselab.add_relu"] = lambda: torch.ops.fuselab.add_relu(a, b)
    for name, fn in checks.items():
        got = fn().double()
        assert torch.allclose(got, ref, rtol=1e-6, atol=1e-7), name
    for fn in (by_pipeline, by_strategy) if has_pipeline_op else (by_strategy,):
        out.fill_(float("nan"))
        fn(a=a, b=b, out=out)
        assert torch.allclose(out.double(), ref, rtol=1e-6, atol=1e-7)
    # A row pipeline, as a transformer layer calls it: softmax over [4, 1024] bfloat16 rows.
    x = (torch.rand(4, 1024, device=dev, generator=g) * 8 - 4).to(torch.bfloat16)
    y = torch.full_like(x, float("nan"))
    by_rows = fuselab.kernel("softmax", target=target)
    row_ref = torch.softmax(x.double(), -1)
    for got in (torch.ops.fuselab.softmax(x), by_rows(x=x, out=y)):
        assert torch.allclose(got.double(), row_ref, rtol=2e-2, atol=1e-3), "softmax"
    paths += [
        ("torch.ops.fuselab.softmax [4, 1024] bfloat16", lambda: torch.ops.fuselab.softmax(x)),
        ("fuselab.kernel(softmax) [4, 1024] bfloat16", lambda: by_rows(x=x, out=y)),
        ("torch_eager_op softmax [4, 1024] bfloat16", lambda: torch.softmax(x, -1)),
    ]
    records = []
    timed = per_call_us(paths, opt.calls, opt.repeats, sync)
    for name, _ in paths:
        med, samples = timed[name]
        records.append({"kind": "call_overhead", "workload": "add_relu", "size": str(opt.n),
                        "name": name, "device": dev, "host_us": med, "samples_us": samples,
                        "calls_per_repeat": opt.calls, "repeats": opt.repeats})
        print(f"{name:44s} {med:8.2f} us per call")
    chosen = getattr(by_pipeline, "chosen", None)
    meta = {"date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "torch": torch.__version__,
            "device": torch.cuda.get_device_name() if dev == "cuda" else "cpu",
            "pipeline_chose": chosen, "python": sys.version.split()[0],
            "torch_ops_backend": fuselab.torch_ops.BACKEND,
            "torch_ops_fallback_reason": fuselab.torch_ops.FALLBACK_REASON}
    with open(opt.json, "w") as f:
        json.dump({"meta": meta, "records": records}, f, indent=1)
    print(f"wrote {opt.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
