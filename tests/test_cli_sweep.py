#!/usr/bin/env python3
"""Every variant that `fuselab list --target T` shows, through `fuselab run` on .npy files, at
shapes that are 1, prime, or just past a tile, against the float64 references of reference.py.

    python3 tests/test_cli_sweep.py PATH/TO/fuselab [--target cpu|cuda] [--jobs 2]
        [--seed S] [--variant PIPELINE/SCHEDULE ...] [--size SIZE ...]

For each (variant, shape), on fresh random inputs in [-1, 1]: exit status 0, every output file
written with the expected shape and dtype float32, and its error (reference.error: every element
compared, so an element left at the runtime's NaN poison fails) within the pipeline's tolerance.
Autoscheduled variants (schedule `auto`) are tuned for their estimates and may refuse other sizes:
a refusal passes only as exit status 1 with a message naming the variant and the autoscheduler,
and no output file; Halide's raw out-of-bounds message fails. Each auto variant also runs at its
default size (the first of `fuselab list --sizes`), where it must not refuse.

With --target cuda, when variants are listed but no GPU is usable, the sweep is skipped (exit 0)
with the reason. Inputs are derived from --seed (printed; random unless given), the variant and
the size, so a failure's line reruns it exactly. Exits 1 on any failure.
"""
import argparse
import concurrent.futures
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import warnings
import zlib

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import reference  # noqa: E402

# numpy < 2.5 only warns about a malformed .npy header; newer numpy refuses it. Refuse it here.
warnings.simplefilter("error")

# Shapes per kind of pipeline, in the runtime's size formats (reference.py's docstring).
SHAPES_1D = [
    1, 7, 17, 33, 65, 129, 257,      # 1, primes, just past 16, 32, 64, 128, 256
    1021, 1025, 4097, 65537,         # a prime below 1024; 2^k + 1 past 1024, 4096, 65536
    131073, 300007, 1048577,         # full CPU chunks (65536 on AVX-512) and CUDA blocks
]
SHAPES_2D = [  # output W x H
    (1, 1), (1, 13), (13, 1),        # one column, one row
    (13, 7), (31, 17),               # primes
    (17, 9), (257, 33), (65, 129),   # just past 8, 16, 32, 64, 128, 256
    (33, 65), (129, 257), (513, 9),
    (300, 200), (1031, 517),         # full CPU tiles (256x32) and CUDA blocks
]
SHAPES_CONV = [  # input W x H x C x K; the output is floor(W/2) x floor(H/2), so W, H >= 2
    (2, 2, 1, 1), (3, 5, 1, 1),      # the smallest, odd extents (floor)
    (13, 7, 3, 16), (31, 17, 5, 17),
    (17, 33, 16, 9), (65, 129, 16, 9),
    (257, 33, 3, 16), (129, 65, 5, 17),
    (67, 41, 16, 16), (513, 17, 3, 8),
    (300, 200, 3, 16),               # full CPU rows and CUDA blocks (128x8 input pixels)
    (640, 360, 16, 16),
]
SHAPES_TWO_CONVS = [  # W x H x C x K, no pooling: W = H = 1 is valid
    (1, 1, 1, 1), (1, 13, 3, 16), (13, 7, 3, 16), (31, 17, 5, 17),
    (17, 33, 16, 9), (257, 33, 3, 16), (65, 129, 16, 17), (300, 200, 16, 16),
]


def shapes_for(pipeline):
    if pipeline == "conv_relu_pool":
        return SHAPES_CONV
    if pipeline.startswith("two_convs"):
        return SHAPES_TWO_CONVS
    fmt = reference.PIPELINES[pipeline].size_format
    return SHAPES_1D if fmt == "N" else SHAPES_2D


RUN_TIMEOUT_S = 600
KEEP_LIMIT_BYTES = 16 << 20  # a failed run's files are kept for rerunning when this small


def fuselab(exe, *args, timeout=RUN_TIMEOUT_S):
    return subprocess.run([exe, *args], capture_output=True, text=True, timeout=timeout)


def list_variants(exe, target):
    """[(pipeline, schedule)] that `fuselab list --target T` shows, and {(pipeline, schedule):
    [size text]} from `--sizes`."""
    p = fuselab(exe, "list", "--target", target)
    if p.returncode != 0:
        sys.exit(f"fuselab list --target {target} failed ({p.returncode}): {p.stderr}")
    variants = []
    for line in p.stdout.splitlines():
        f = line.split()
        if len(f) < 3 or f[0] == "pipeline":
            continue
        if f[2] != target:
            sys.exit(f"fuselab list --target {target} shows a {f[2]} variant: {line}")
        variants.append((f[0], f[1]))
    p = fuselab(exe, "list", "--target", target, "--sizes")
    sizes = {}
    if p.returncode == 0:
        for line in p.stdout.splitlines():
            f = line.split()
            if len(f) == 4 and f[2] == target:
                sizes.setdefault((f[0], f[1]), []).append(f[3])
    return variants, sizes


class Result:
    PASS, REFUSED, FAIL = "pass", "refused", "fail"

    def __init__(self, status, message="", raw_auto=False):
        self.status, self.message, self.raw_auto = status, message, raw_auto


def job_seed(base, name, size):
    return int(np.random.SeedSequence([base, zlib.crc32(f"{name} {size}".encode())]).generate_state(1)[0])


def run_one(exe, target, pipeline, schedule, size, tuned, base_seed, workdir):
    """One (variant, shape): (Result, the fuselab command line, the job's seed, its folder)."""
    p = reference.PIPELINES[pipeline]
    name = f"{pipeline}/{schedule}/{target}"
    size_text = reference.format_size(size)
    seed = job_seed(base_seed, name, size_text)
    d = tempfile.mkdtemp(prefix=f"{pipeline}.{schedule}.{size_text}.", dir=workdir)
    inputs = p.inputs(np.random.default_rng(seed), size)
    args = ["run", pipeline, "--schedule", schedule, "--target", target]
    for n, a in inputs.items():
        path = os.path.join(d, f"{n}.npy")
        np.save(path, a)
        args.append(f"{n}={path}")
    out_paths = {n: os.path.join(d, f"out.{n}.npy") for n in p.outputs}
    for n, path in out_paths.items():
        args += ["-o", f"{n}={path}"]
    cmd = " ".join([exe, *args])
    try:
        proc = fuselab(exe, *args)
    except subprocess.TimeoutExpired:
        return Result(Result.FAIL, f"timed out after {RUN_TIMEOUT_S} s"), cmd, seed, d
    stderr = proc.stderr.strip()
    written = [n for n, path in out_paths.items() if os.path.exists(path)]
    auto = schedule == "auto"

    if proc.returncode != 0:
        if written:
            return Result(Result.FAIL, f"exit {proc.returncode} but wrote {written}: {stderr}"), cmd, seed, d
        if auto and not tuned:
            if proc.returncode == 1 and name in stderr and "autoscheduler" in stderr:
                return Result(Result.REFUSED, stderr), cmd, seed, d
            raw = "out of bounds" in stderr or "before the min" in stderr or "after the max" in stderr
            why = ("refused with Halide's raw bounds message, not naming the autoscheduler"
                   if raw else "refused without naming the variant and the autoscheduler (exit 1 expected)")
            return Result(Result.FAIL, f"{why}: exit {proc.returncode}: {stderr}", raw_auto=raw), cmd, seed, d
        # A variant taking its weights as kernel parameters runs one shape (conv_relu_pool's
        # const_* for C3 K16) and refuses the others, saying so.
        if (proc.returncode == 1 and name in stderr
                and "kernel parameters, so it runs one shape only" in stderr):
            return Result(Result.REFUSED, stderr), cmd, seed, d
        what = "refused its own default size" if auto else "failed"
        return Result(Result.FAIL, f"{what}: exit {proc.returncode}: {stderr}"), cmd, seed, d

    ref = p.reference(inputs)
    del inputs
    problems = []
    expected = p.output_shapes(size)
    for n, path in out_paths.items():
        if n not in written:
            problems.append(f"output '{n}' not written")
            continue
        try:
            out = np.load(path)
        except Exception as e:  # a malformed file, or numpy's header warning
            problems.append(f"output '{n}' does not load: {type(e).__name__}: {e}")
            continue
        if out.dtype != np.float32:
            problems.append(f"output '{n}' has dtype {out.dtype}, expected float32")
        if out.shape != expected[n]:
            problems.append(f"output '{n}' has shape {out.shape}, expected {expected[n]}")
            continue
        err = reference.error(out, ref[n])
        if not err <= p.tolerance:
            bad = int(np.count_nonzero(~np.isfinite(out)))
            detail = f" ({bad} of {out.size} elements NaN/inf)" if bad else ""
            problems.append(f"output '{n}' error {err:.3g} > {p.tolerance:g}{detail}")
    if problems:
        return Result(Result.FAIL, "; ".join(problems)), cmd, seed, d
    return Result(Result.PASS), cmd, seed, d


def dir_bytes(d):
    return sum(os.path.getsize(os.path.join(d, f)) for f in os.listdir(d))


def cuda_unusable(exe, pipeline, schedule, workdir):
    """The reason the CUDA variants cannot run here, or None: one small run of one of them."""
    p = reference.PIPELINES.get(pipeline)
    if p is None:
        return None
    d = tempfile.mkdtemp(prefix="probe.", dir=workdir)
    args = ["run", pipeline, "--schedule", schedule, "--target", "cuda"]
    for n, a in p.inputs(np.random.default_rng(0), shapes_for(pipeline)[0]).items():
        np.save(os.path.join(d, n + ".npy"), a)
        args.append(f"{n}={os.path.join(d, n + '.npy')}")
    for n in p.outputs:
        args += ["-o", f"{n}={os.path.join(d, 'out.' + n + '.npy')}"]
    proc = fuselab(exe, *args)
    shutil.rmtree(d, ignore_errors=True)
    if "no usable CUDA device" in proc.stderr:
        return proc.stderr.strip()
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("fuselab")
    ap.add_argument("--target", choices=["cpu", "cuda"], default="cpu")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=None, help="base seed (default: random, printed)")
    ap.add_argument("--variant", action="append", default=[], help="PIPELINE/SCHEDULE (repeatable)")
    ap.add_argument("--size", action="append", default=[], help="only this size, e.g. 31x17 (repeatable)")
    opt = ap.parse_args()
    exe = os.path.abspath(opt.fuselab)
    target = opt.target
    base_seed = opt.seed if opt.seed is not None else int.from_bytes(os.urandom(4), "little")
    start = time.monotonic()

    variants, default_sizes = list_variants(exe, target)
    if opt.variant:
        variants = [v for v in variants if "/".join(v) in opt.variant]
    if not variants:
        print(f"SKIP: fuselab list --target {target} shows no variants"
              + (f" matching {opt.variant}" if opt.variant else ""))
        return 0 if not opt.variant else 1
    workdir = tempfile.mkdtemp(prefix=f"fuselab_sweep_{target}.")
    print(f"fuselab run sweep: {exe} --target {target}, {len(variants)} variants, "
          f"seed {base_seed}, {opt.jobs} workers, files under {workdir}", flush=True)

    failures = []   # (name, size text, Result, cmd, seed, kept dir)
    lock = threading.Lock()
    unknown = sorted({pl for pl, _ in variants if pl not in reference.PIPELINES})
    for pl in unknown:
        for pl2, sched in variants:
            if pl2 == pl:
                failures.append((f"{pl}/{sched}/{target}", "-", Result(
                    Result.FAIL, f"no reference for pipeline '{pl}' in tests/reference.py"), "", None, None))

    if target == "cuda":
        known = [v for v in variants if v[0] in reference.PIPELINES and v[1] != "auto"]
        reason = cuda_unusable(exe, *known[0], workdir) if known else None
        if reason:
            shutil.rmtree(workdir, ignore_errors=True)
            print(f"SKIP: {len(variants)} CUDA variants are built but no GPU is usable: {reason}")
            return 0

    jobs = []  # (pipeline, schedule, size, tuned)
    for pl, sched in variants:
        if pl not in reference.PIPELINES:
            continue
        p = reference.PIPELINES[pl]
        sizes = [(p.size(s), False) for s in shapes_for(pl)]
        if sched == "auto" and default_sizes.get((pl, sched)):
            tuned = reference.parse_size(p, default_sizes[(pl, sched)][0])
            sizes = [(s, t) for s, t in sizes if s != tuned] + [(tuned, True)]
        if opt.size:
            sizes = [(s, t) for s, t in sizes if reference.format_size(s) in opt.size]
        jobs += [(pl, sched, s, t) for s, t in sizes]
    # The big runs first, so that the pool's tail is short.
    jobs.sort(key=lambda j: -int(np.prod(j[2])) * (100 if j[3] else 1))

    counts = {Result.PASS: 0, Result.REFUSED: 0, Result.FAIL: 0}
    per_variant_left = {}
    per_variant = {}
    for pl, sched, _, _ in jobs:
        per_variant_left[(pl, sched)] = per_variant_left.get((pl, sched), 0) + 1
        per_variant[(pl, sched)] = {Result.PASS: 0, Result.REFUSED: 0, Result.FAIL: 0}

    def work(job):
        pl, sched, size, tuned = job
        try:
            res, cmd, seed, d = run_one(exe, target, pl, sched, size, tuned, base_seed, workdir)
        except Exception as e:  # a bug of the test itself: report it as a failure, keep going
            res, cmd, seed, d = Result(Result.FAIL, f"test error: {type(e).__name__}: {e}"), "", None, None
        keep = None
        if d is not None:
            if res.status == Result.FAIL and not res.raw_auto and dir_bytes(d) <= KEEP_LIMIT_BYTES:
                keep = d
            else:
                shutil.rmtree(d, ignore_errors=True)
        name = f"{pl}/{sched}/{target}"
        size_text = reference.format_size(size) + (" (default size)" if tuned else "")
        with lock:
            counts[res.status] += 1
            per_variant[(pl, sched)][res.status] += 1
            if res.status == Result.FAIL:
                failures.append((name, size_text, res, cmd, seed, keep))
                print(f"FAIL {name} size {size_text}: {res.message}", flush=True)
                if not res.raw_auto:
                    print(f"     seed {seed}; rerun: {sys.executable} {os.path.abspath(__file__)} {exe} "
                          f"--target {target} --seed {base_seed} --variant {pl}/{sched} "
                          f"--size {reference.format_size(size)}", flush=True)
                    if keep:
                        print(f"     files kept: {cmd}", flush=True)
            per_variant_left[(pl, sched)] -= 1
            if per_variant_left[(pl, sched)] == 0:
                c = per_variant[(pl, sched)]
                n = sum(c.values())
                tag = "ok  " if c[Result.FAIL] == 0 else "FAIL"
                extra = f", {c[Result.REFUSED]} refused" if c[Result.REFUSED] else ""
                extra += f", {c[Result.FAIL]} failed" if c[Result.FAIL] else ""
                print(f"{tag} {name:40s} {n} shapes: {c[Result.PASS]} passed{extra}", flush=True)

    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, opt.jobs)) as pool:
        list(pool.map(work, jobs))

    kept = any(f[5] for f in failures)
    if not kept:
        shutil.rmtree(workdir, ignore_errors=True)
    raw = sum(1 for f in failures if f[2].raw_auto)
    n_shapes = len({(pl, tuple(np.atleast_1d(size))) for pl, _, size, _ in jobs})  # pipeline x size
    wall = time.monotonic() - start
    print()
    print(f"summary ({target}): {len(variants)} variants, {n_shapes} shapes (pipeline x size, with the "
          f"auto variants' default sizes) over {len({pl for pl, _ in variants})} pipelines, "
          f"{len(jobs)} runs: {counts[Result.PASS]} passed, {counts[Result.REFUSED]} refused (auto, one-shape), "
          f"{len(failures)} failed ({raw} of them auto refusals with Halide's raw bounds message), "
          f"{wall:.1f} s, seed {base_seed}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
