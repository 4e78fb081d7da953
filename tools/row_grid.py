#!/usr/bin/env python3
"""Times every CUDA strategy of the row pipelines over a grid of shapes, for the choice's measured
table (issue 29), and writes `fuselab bench`-format records that `fuselab tune --fit` reads.

Each call is timed as `fuselab bench` times a CUDA call (runtime/fuselab/timing.cpp: time_device):
the L2 flushed before it (a 256 MB fill on the same stream, as the bench's), CUDA events around
it, the median of `--repeats`, after `--warmup` untimed calls. It skips the bench's host batches
(5 of at least 20 ms each a measurement, so at least 0.1 s a strategy and shape even where the
call takes 5 us): the bench did not finish 29 shapes, ten strategies and three types of one
pipeline within 150 s (results/runs/2026-12-03-h200-s22/a), where this timed 87 such shapes in
30 to 58 s a pipeline (b).

  python3 tools/row_grid.py --json OUT.json --n 184 --n 221 ... --elements 21 --elements 25
      [--shape NxM ...] [--pipeline P ...] [--dtype D ...] [--schedule S ...] [--repeats 15]

Shapes: each N with M = round(2^E / N) for each --elements E, and each --shape. Inputs are
uniform in [-1, 1). A strategy that refuses a shape (its declared row limit) gets a record with its
error, as the bench's. Records carry the variant's kernel count and the minimum bytes, and
intermediate_bytes 0 (chunked_row's partials, 8 bytes a 16 KB chunk, are left out), for the cost
model's fit. Needs torch with CUDA and the fuselab package (FUSELAB_LIBRARY names a build's
library).
"""
import argparse
import json
import os
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "python"))

import torch  # noqa: E402

import fuselab  # noqa: E402

ROWS = ("softmax", "layernorm", "rmsnorm_residual")
TORCH_DTYPES = {"float32": torch.float32, "bfloat16": torch.bfloat16, "float16": torch.float16}


def arguments_of(record, n, m, dtype, device):
    """Fresh inputs and outputs of a variant at N x M: a 2-D argument is [M, N], a 1-D one [N]."""
    ins, outs, min_bytes = {}, {}, 0
    for a in record["arguments"]:
        shape = (m, n) if a["dimensions"] == 2 else (n,)
        t = torch.empty(shape, dtype=TORCH_DTYPES[dtype], device=device)
        if a["kind"] == "input":
            t.uniform_(-1, 1)
            ins[a["name"]] = t
        else:
            outs[a["name"]] = t
        min_bytes += t.numel() * t.element_size()
    return ins, outs, min_bytes


def time_call(fn, flush, warmup, repeats, cuda=True):
    if not cuda:  # a dry run on the CPU variants: the wall clock of each call
        us = []
        for _ in range(warmup + repeats):
            t0 = time.perf_counter()
            fn()
            us.append((time.perf_counter() - t0) * 1e6)
        us = sorted(us[warmup:])
        return statistics.median(us), us[0]
    for _ in range(warmup):
        flush()
        fn()
    pairs = [(torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True))
             for _ in range(repeats)]
    for start, end in pairs:
        flush()
        start.record()
        fn()
        end.record()
    torch.cuda.synchronize()
    us = sorted(s.elapsed_time(e) * 1e3 for s, e in pairs)
    return statistics.median(us), us[0]


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--json", required=True)
    ap.add_argument("--n", type=int, action="append", default=[])
    ap.add_argument("--elements", type=float, action="append", default=[], help="log2 of N x M")
    ap.add_argument("--shape", action="append", default=[], help="NxM, besides the grid")
    ap.add_argument("--pipeline", action="append", default=None)
    ap.add_argument("--dtype", action="append", default=None)
    ap.add_argument("--schedule", action="append", default=None)
    ap.add_argument("--target", default="cuda", help="cuda, or cpu for a dry run of this script")
    ap.add_argument("--warmup", type=int, default=3)
    ap.add_argument("--repeats", type=int, default=15)
    opt = ap.parse_args()
    cuda = opt.target == "cuda"
    device = torch.device(opt.target)
    flush_buf = torch.empty(256 << 20 if cuda else 1, dtype=torch.uint8, device=device)
    flush = lambda: flush_buf.fill_(1)  # noqa: E731
    listed = [v for v in fuselab.variants() if v["target"] == opt.target and v["pipeline"] in
              (opt.pipeline or ROWS) and v["dtype"] in (opt.dtype or list(TORCH_DTYPES))
              and (opt.schedule is None or v["schedule"] in opt.schedule)]
    meta = {"device": torch.cuda.get_device_name() if cuda else "cpu (dry run)",
            "tool": "tools/row_grid.py",
            "timing": "events after a 256 MB L2 flush, median of %d" % opt.repeats,
            "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "argv": sys.argv[1:]}
    records, t0 = [], time.time()
    shapes = [(n, max(1, round(2 ** e / n))) for e in opt.elements for n in opt.n]
    shapes += [tuple(int(v) for v in s.split("x")) for s in opt.shape]
    for pipeline in opt.pipeline or ROWS:
        for dtype in opt.dtype or list(TORCH_DTYPES):
            here = [v for v in listed if v["pipeline"] == pipeline and v["dtype"] == dtype]
            kernels = {v["schedule"]: fuselab.kernel(pipeline, v["schedule"], target=opt.target)
                       for v in here}
            for n, m in shapes:
                ins, outs, min_bytes = arguments_of(here[0], n, m, dtype, device)
                for v in here:
                    rec = {"kind": "fuselab", "workload": pipeline, "size": f"{n}x{m}",
                           "name": v["schedule"], "dtype": dtype, "target": opt.target,
                           "kernels": v["kernels"], "min_bytes": min_bytes,
                           "intermediate_bytes": 0, "timing": "events" if cuda else "host"}
                    k = kernels[v["schedule"]]
                    try:
                        k(**ins, **outs)
                        if cuda:
                            torch.cuda.synchronize()
                        med, low = time_call(lambda: k(**ins, **outs), flush, opt.warmup,
                                             opt.repeats, cuda)
                        rec.update(median_us=med, min_us=low, repeats=opt.repeats, ok=True)
                    except (fuselab.Error, ValueError) as e:
                        rec.update(error=str(e).splitlines()[0][:300], median_us=None, ok=False)
                    records.append(rec)
                print(f"{pipeline} {dtype} {n}x{m}: {len(here)} strategies, "
                      f"{time.time() - t0:.0f} s", flush=True)
            with open(opt.json, "w") as f:  # after each (pipeline, type): a partial run is kept
                json.dump({"meta": meta, "records": records}, f, indent=0)
    return 0


if __name__ == "__main__":
    sys.exit(main())
