#!/usr/bin/env python3
"""Every variant that `fuselab list --target T --json` shows, through `fuselab run` on .npy files,
at shapes that are 1, prime, or just past a tile, against the float64 references of reference.py.

    python3 tests/test_cli_sweep.py PATH/TO/fuselab [--target cpu|cuda] [--jobs 2] [--seed S]
        [--pipeline P ...] [--variant PIPELINE/SCHEDULE[/DTYPE] ...] [--size SIZE[:special] ...] [--all-shapes]
        [--shapes K] [--no-default-size | --default-size-only] [--verbose]

What each variant runs (its jobs):
- its default size (the first of `fuselab list --target T --sizes`), which it must pass: no
  refusal there (--no-default-size leaves it out, e.g. 2^28 elements on a small GPU host;
  --default-size-only runs it alone, so that a GPU host can split the sweep into two calls);
- K shapes of its pipeline's shape list below (--shapes, default 4): always the smallest and the
  largest, the others drawn by the base seed, so a rerun with the same --seed runs the same
  shapes; --all-shapes runs the whole list (the GPU machine's sweep);
- for add_relu, pointwise_chain, branches and branches_indep, special inputs (reference.py:
  +-inf and +-1e30 for add_relu, magnitudes 1e4 .. 1e30 where tanh and sigmoid saturate) at a
  few small sizes, and for an autoscheduled variant at its default size too.
With --size, exactly the sizes given (SIZE:special for special inputs), nothing sampled.

Each job, on inputs derived from the base seed, the variant and the job (printed, so a FAIL
line's rerun command reruns it exactly): exit status 0, every output written with the expected
shape and dtype float32, and reference.check: every element within the pipeline's per-element
bound and the norm within WORKLOADS.md's tolerance. A refusal passes (as "refused") only from a
variant that declares the limit (`list --json`'s "limit": "autoscheduled" — message with "refuses
this size" and "autoscheduler" —, "one_shape" — "kernel parameters, so it runs one shape
only" — or "row_length" — "holds a row on chip"), with exit status 1, the variant's name, that
wording and no output file, and never at the default size (but for "row_length": rows longer
than it holds). A sanitizer report (tests/harness.py) fails the job whatever the exit status.
Every variant must pass at least one job.

Exit status: 0 all passed, 1 any failure, 77 skipped (--target cuda without CUDA variants or a
usable GPU; with FUSELAB_REQUIRE_CUDA=1 that is a failure). The last line is
`N passed, N failed, N skipped` (N passed counts the refusals too; the line before counts them).
"""
import argparse
import concurrent.futures
import json
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
import harness  # noqa: E402
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
SHAPES_ROWS = [  # N x M: rows of one element, primes, just past a warp's, a block's and 2^16;
    # one 16-byte vector (8) and the padded register form's rungs (row_pad.h: 256 to 1024), each
    # cut inside (520, 1016: aligned, their last vectors past n) and at a top no exact
    # specialization takes (768); the padded block forms' rows past their ladders, aligned and
    # cut inside a multiple of their step (2056, 8200: row_pad_unit 1024 to 4096)
    (1, 1), (1, 9), (7, 3), (8, 5), (33, 17), (257, 5), (520, 3), (768, 2), (1000, 3),
    (1016, 3), (1025, 4), (2056, 3), (4097, 3), (8200, 2), (16385, 2), (65537, 2), (262147, 1),
]
SHAPES_TWO_CONVS = [  # W x H x C x K, no pooling: W = H = 1 is valid
    (1, 1, 1, 1), (1, 13, 3, 16), (13, 7, 3, 16), (31, 17, 5, 17),
    (17, 33, 16, 9), (257, 33, 3, 16), (65, 129, 16, 17), (300, 200, 16, 16),
]
# Special inputs (reference.py) at these sizes, for the pipelines that have them.
SPECIAL_SIZES_1D = [7, 1021, 65537]
SPECIAL = "special"

LIMITS = harness.LIMITS


def shapes_for(pipeline):
    if pipeline == "conv_relu_pool":
        return SHAPES_CONV
    if pipeline.startswith("two_convs"):
        return SHAPES_TWO_CONVS
    if pipeline in reference.ROW_PIPELINES:
        return SHAPES_ROWS
    fmt = reference.PIPELINES[pipeline].size_format
    return SHAPES_1D if fmt == "N" else SHAPES_2D


RUN_TIMEOUT_S = 600
KEEP_LIMIT_BYTES = 16 << 20  # a failed run's files are kept for rerunning when this small


def fuselab(exe, *args, timeout=RUN_TIMEOUT_S):
    return harness.run_fuselab(exe, *args, timeout=timeout)


class Variant:
    def __init__(self, record, target):
        self.record = record
        self.pipeline, self.schedule = record["pipeline"], record["schedule"]
        self.dtype = record.get("dtype", "float32")
        self.target = target
        self.name = record.get("name", f"{self.pipeline}/{self.schedule}/{target}")
        self.limit, self.limit_from = declared_limit(record)
        self.default = None  # its default size, as a tuple, from list --sizes

    @property
    def key(self):
        return (self.pipeline, self.schedule, self.dtype)

    @property
    def label(self):  # --variant's form: PIPELINE/SCHEDULE, with /DTYPE unless float32
        return "/".join(self.key if self.dtype != "float32" else self.key[:2])

    def inputs(self, p, rng, size, special=False):
        if special:
            return p.special_inputs(rng, size)
        if self.dtype != "float32" or p.name in reference.ROW_PIPELINES:
            return p.inputs(rng, size, self.dtype)
        return p.inputs(rng, size)


def declared_limit(record):
    return harness.variant_limit(record)


def list_variants(exe, target):
    """([Variant], [problem]) from `fuselab list --target T --json` and `--sizes`. Problems are
    failures of the sweep (a failing or malformed listing, a variant without sizes)."""
    problems = []
    p = fuselab(exe, "list", "--target", target, "--json")
    if p.returncode != 0:
        return [], [f"fuselab list --target {target} --json failed ({p.returncode}): {p.stderr.strip()}"]
    try:
        records = json.loads(p.stdout)
        assert isinstance(records, list)
    except (ValueError, AssertionError) as e:
        return [], [f"fuselab list --target {target} --json printed no JSON array ({e}): "
                    f"{p.stdout[:500]}"]
    variants = []
    for r in records:
        if r.get("target") != target:
            problems.append(f"fuselab list --target {target} --json shows a {r.get('target')} "
                            f"variant: {r.get('pipeline')}/{r.get('schedule')}")
            continue
        v = Variant(r, target)
        if v.limit not in LIMITS:
            problems.append(f"{v.name}: unknown limit {v.limit!r} in list --json")
        variants.append(v)
    p = fuselab(exe, "list", "--target", target, "--sizes")
    if p.returncode != 0:
        problems.append(f"fuselab list --target {target} --sizes failed ({p.returncode}): "
                        f"{p.stderr.strip()}")
        return variants, problems
    sizes = {}
    for line in p.stdout.splitlines():
        f = line.split()
        if len(f) != 5 or f[2] != target or f[4] not in reference.DTYPES:
            problems.append(f"fuselab list --target {target} --sizes: malformed line {line!r}")
            continue
        sizes.setdefault((f[0], f[1], f[4]), []).append(f[3])
    for v in variants:
        listed = sizes.get(v.key)
        if not listed:
            problems.append(f"{v.name}: fuselab list --sizes shows no size for it")
            continue
        if v.pipeline in reference.PIPELINES:
            try:
                v.default = reference.parse_size(v.pipeline, listed[0])
            except ValueError as e:
                problems.append(f"{v.name}: list --sizes gives {listed[0]!r}: {e}")
                continue
        json_default = v.record.get("default_size")
        if json_default is not None and json_default != listed[0]:
            problems.append(f"{v.name}: list --json's default_size {json_default} is not the "
                            f"first of list --sizes ({listed[0]})")
    return variants, problems


class Result:
    PASS, REFUSED, FAIL = "pass", "refused", "fail"

    def __init__(self, status, message=""):
        self.status, self.message = status, message


class Job:
    def __init__(self, variant, size, special=False, default=False):
        self.v, self.size, self.special, self.default = variant, size, special, default
        self.size_text = reference.format_size(size)
        self.key = self.size_text + (":" + SPECIAL if special else "")

    def label(self):
        return self.key + (" (default size)" if self.default else "")

    def elements(self):
        return int(np.prod(self.size))


def job_seed(base, name, key):
    """The seed of one job: the base seed, the variant's name and the job's key (its size, with
    ':special' for special inputs)."""
    return int(np.random.SeedSequence([base, zlib.crc32(f"{name} {key}".encode())]).generate_state(1)[0])


def sample_shapes(shapes, k, base_seed, name):
    """k shapes of `shapes`: the smallest and the largest (by elements) always, the others drawn
    by the base seed and the variant's name; in the list's order."""
    if k >= len(shapes):
        return list(shapes)
    by_size = sorted(range(len(shapes)), key=lambda i: (int(np.prod(shapes[i])), i))
    keep = {by_size[0], by_size[-1]}
    rest = [i for i in range(len(shapes)) if i not in keep]
    rng = np.random.default_rng(np.random.SeedSequence([base_seed, zlib.crc32(name.encode())]))
    keep |= set(int(i) for i in rng.choice(rest, size=max(0, k - 2), replace=False))
    return [shapes[i] for i in sorted(keep)]


def refusal(v, job, rc, stderr):
    """(accepted, why): whether a non-zero exit is a refusal this variant declares: exit 1 with
    the words of its declared limit (harness.refusal_problem, the rule every entry point's tests
    share: a row held on chip may refuse the default size, nothing else may)."""
    problem = harness.refusal_problem(v.name, v.limit, stderr, job.default)
    if problem is None and rc == 1:
        return True, ""
    if problem is None:
        problem = f"{v.name} refused in its limit's words, but a refusal exits 1"
    raw = any(s in stderr for s in ("out of bounds", "before the min", "after the max"))
    return False, f"exit {rc}: {problem}" + ("; Halide's raw bounds message" if raw else "")


def run_one(exe, job, base_seed, workdir):
    """One job: (Result, the fuselab command line, the job's seed, its folder)."""
    v = job.v
    p = reference.PIPELINES[v.pipeline]
    seed = job_seed(base_seed, v.name, job.key)
    d = tempfile.mkdtemp(prefix=f"{v.pipeline}.{v.schedule}.{v.dtype}.{job.key.replace(':', '.')}.",
                         dir=workdir)
    rng = np.random.default_rng(seed)
    inputs = v.inputs(p, rng, job.size, job.special)
    args = ["run", v.pipeline, "--schedule", v.schedule, "--target", v.target]
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
    except harness.SanitizerReport as e:
        return Result(Result.FAIL, str(e)), cmd, seed, d
    stderr = proc.stderr.strip()
    written = [n for n, path in out_paths.items() if os.path.exists(path)]

    if proc.returncode != 0:
        if written:
            return Result(Result.FAIL, f"exit {proc.returncode} but wrote {written}: {stderr}"), cmd, seed, d
        ok, why = refusal(v, job, proc.returncode, stderr)
        if ok:
            return Result(Result.REFUSED, stderr), cmd, seed, d
        return Result(Result.FAIL, f"{why}: {stderr}"), cmd, seed, d

    ref = p.reference(inputs)
    del inputs
    problems = []
    expected = p.output_shapes(job.size)
    for n, path in out_paths.items():
        if n not in written:
            problems.append(f"output '{n}' not written")
            continue
        try:
            out = np.load(path)
        except Exception as e:  # a malformed file, or numpy's header warning
            problems.append(f"output '{n}' does not load: {type(e).__name__}: {e}")
            continue
        want = {"float32": np.float32, "float16": np.float16, "bfloat16": np.uint16}[v.dtype]
        if out.dtype != want:
            problems.append(f"output '{n}' has dtype {out.dtype}, expected {np.dtype(want)} "
                            f"({v.dtype})")
        if out.shape != expected[n]:
            problems.append(f"output '{n}' has shape {out.shape}, expected {expected[n]}")
            continue
        ok, msg = reference.check(p, out, ref[n], job.size, n)
        if not ok:
            problems.append(msg)
    if problems:
        return Result(Result.FAIL, "; ".join(problems)), cmd, seed, d
    return Result(Result.PASS), cmd, seed, d


def dir_bytes(d):
    return sum(os.path.getsize(os.path.join(d, f)) for f in os.listdir(d))


def cuda_unusable(exe, v, workdir):
    """The reason the CUDA variants cannot run here, or None: one small run of `v` (a variant
    without a declared limit, so that it runs the smallest shape)."""
    p = reference.PIPELINES[v.pipeline]
    d = tempfile.mkdtemp(prefix="probe.", dir=workdir)
    args = ["run", v.pipeline, "--schedule", v.schedule, "--target", "cuda"]
    for n, a in v.inputs(p, np.random.default_rng(0), shapes_for(v.pipeline)[0]).items():
        np.save(os.path.join(d, n + ".npy"), a)
        args.append(f"{n}={os.path.join(d, n + '.npy')}")
    for n in p.outputs:
        args += ["-o", f"{n}={os.path.join(d, 'out.' + n + '.npy')}"]
    try:
        proc = fuselab(exe, *args)
    finally:
        shutil.rmtree(d, ignore_errors=True)
    if "no usable CUDA device" in proc.stderr:
        return proc.stderr.strip()
    return None


def plan(variants, opt, base_seed):
    """[Job] per variant, and {variant key: sampled shapes} for --verbose."""
    jobs, sampled = {}, {}
    for v in variants:
        p = reference.PIPELINES[v.pipeline]
        mine = []
        if opt.size:
            for text in opt.size:
                size_text, _, kind = text.partition(":")
                if kind not in ("", SPECIAL):
                    sys.exit(f"--size {text}: expected SIZE or SIZE:{SPECIAL}")
                try:
                    size = p.size(size_text)
                except ValueError:
                    continue  # a size of another pipeline's format
                if kind and not p.has_special:
                    continue
                mine.append(Job(v, size, bool(kind), size == v.default))
        else:
            shapes = [p.size(s) for s in shapes_for(v.pipeline)]
            # A one-shape variant refuses all but its own shape, which a sample may miss: it
            # runs every shape (most are refused at once), so that it passes some.
            every = opt.all_shapes or v.limit == "one_shape"
            chosen = shapes if every else sample_shapes(shapes, opt.shapes, base_seed, v.name)
            sampled[v.key] = chosen
            if v.default is not None and not opt.no_default_size:
                mine.append(Job(v, v.default, False, True))
            mine += [Job(v, s, False, s == v.default) for s in chosen
                     if s != v.default or opt.no_default_size]
            if opt.default_size_only:
                mine = [Job(v, v.default, False, True)] if v.default is not None else []
            if p.has_special:
                specials = [p.size(s) for s in SPECIAL_SIZES_1D]
                if v.limit == "autoscheduled" and v.default is not None and not opt.no_default_size:
                    specials.append(v.default)
                mine += [Job(v, s, True, s == v.default) for s in specials]
        seen, unique = set(), []
        for j in mine:
            if j.key not in seen:
                seen.add(j.key)
                unique.append(j)
        jobs[v.key] = unique
    return jobs, sampled


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("fuselab")
    ap.add_argument("--target", choices=["cpu", "cuda"], default="cpu")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=None, help="base seed (default: random, printed)")
    ap.add_argument("--variant", action="append", default=[],
                    help="PIPELINE/SCHEDULE, with /DTYPE for a storage type but float32 (repeatable)")
    ap.add_argument("--pipeline", action="append", default=[], help="only this pipeline's variants (repeatable)")
    ap.add_argument("--size", action="append", default=[],
                    help="only this size, e.g. 31x17, or 1021:special (repeatable)")
    ap.add_argument("--all-shapes", action="store_true", help="every shape of the shape lists")
    ap.add_argument("--shapes", type=int, default=4,
                    help="shapes sampled per variant, the smallest and largest among them (default 4)")
    ap.add_argument("--no-default-size", action="store_true",
                    help="leave out the default sizes (and the autoscheduled variants' special "
                         "inputs there)")
    ap.add_argument("--default-size-only", action="store_true",
                    help="only the default sizes (the other half of a --no-default-size sweep)")
    ap.add_argument("--verbose", action="store_true",
                    help="each variant's limit and sampled shapes, each job's seed and result")
    opt = ap.parse_args()
    if opt.default_size_only and (opt.no_default_size or opt.size):
        ap.error("--default-size-only runs the default sizes alone: not with --no-default-size "
                 "or --size")
    opt.shapes = max(2, opt.shapes)
    exe = os.path.abspath(opt.fuselab)
    target = opt.target
    base_seed = opt.seed if opt.seed is not None else int.from_bytes(os.urandom(4), "little")
    start = time.monotonic()
    print(f"fuselab run sweep: {exe} --target {target}, seed {base_seed}", flush=True)

    def fail_early(problems):
        for m in problems:
            print(f"FAIL {m}", flush=True)
        print(f"\nsummary ({target}): listing failed, seed {base_seed}")
        print(harness.summary_line(0, len(problems), 0), flush=True)
        return 1

    try:
        variants, problems = list_variants(exe, target)
    except harness.SanitizerReport as e:
        return fail_early([str(e)])
    except subprocess.TimeoutExpired as e:
        return fail_early([f"fuselab list timed out: {e}"])
    if opt.pipeline:
        variants = [v for v in variants if v.pipeline in opt.pipeline]
    if opt.variant:
        unknown = [n for n in opt.variant if n not in {v.label for v in variants}]
        variants = [v for v in variants if v.label in opt.variant]
        problems += [f"--variant {n}: fuselab list --target {target} shows no such variant"
                     for n in unknown]
    if not variants:
        if problems:
            return fail_early(problems)
        if target == "cuda":
            harness.skip_script("fuselab list --target cuda shows no variants: this build has "
                                "no CUDA variants", cuda=True)
        return fail_early([f"fuselab list --target {target} shows no variants"])
    workdir = tempfile.mkdtemp(prefix=f"fuselab_sweep_{target}.")

    failures = []   # (name, job label, message, rerun, seed, kept dir)

    def variant_failure(name, message):
        failures.append((name, "-", message, "", None, None))
        print(f"FAIL {name}: {message}", flush=True)

    for m in problems:
        variant_failure("list", m)
    runnable = []
    for v in variants:
        if v.pipeline not in reference.PIPELINES:
            variant_failure(v.name, f"no reference for pipeline '{v.pipeline}' in tests/reference.py")
        else:
            runnable.append(v)  # without a default size (a list --sizes problem) it runs the rest

    if target == "cuda":
        probe = next((v for v in runnable if v.limit is None), None)
        reason = cuda_unusable(exe, probe, workdir) if probe else None
        if reason:
            shutil.rmtree(workdir, ignore_errors=True)
            harness.skip_script(f"{len(variants)} CUDA variants are built but no GPU is usable: "
                                f"{reason}", cuda=True, skipped=len(variants))

    jobs_by_variant, sampled = plan(runnable, opt, base_seed)
    print(f"{len(variants)} variants, {sum(map(len, jobs_by_variant.values()))} runs "
          f"({'every shape' if opt.all_shapes else f'{opt.shapes} sampled shapes'} per variant"
          f"{'' if opt.no_default_size else ', the default size'}"
          f"{' (the default size only)' if opt.default_size_only else ''}"
          f", special inputs for {', '.join(reference.SPECIAL_PIPELINES)}), {opt.jobs} workers, "
          f"files under {workdir}", flush=True)
    if opt.verbose:
        for v in runnable:
            shown = ", ".join(reference.format_size(s) for s in sampled.get(v.key, []))
            print(f"  {v.name}: limit {v.limit} ({v.limit_from}), default size "
                  f"{reference.format_size(v.default) if v.default else '?'}; sampled: "
                  f"{shown or '(--size)'}; jobs: {', '.join(j.key for j in jobs_by_variant[v.key])}",
                  flush=True)

    jobs = [j for js in jobs_by_variant.values() for j in js]
    if not jobs:
        variant_failure("plan", f"nothing to run (--size {' '.join(opt.size)} fits no listed "
                                f"variant's size format)")
    # The big runs first (the default sizes, special inputs there too), so that the pool's tail
    # is short.
    jobs.sort(key=lambda j: -j.elements() * (100 if j.size == j.v.default else 1))

    lock = threading.Lock()
    counts = {Result.PASS: 0, Result.REFUSED: 0, Result.FAIL: 0}
    refusals = {"autoscheduled": 0, "one_shape": 0, "row_length": 0}
    left = {k: len(js) for k, js in jobs_by_variant.items()}
    per_variant = {k: {Result.PASS: 0, Result.REFUSED: 0, Result.FAIL: 0} for k in jobs_by_variant}
    by_key = {v.key: v for v in runnable}
    script = os.path.abspath(__file__)

    # The big runs go first, so variants finish only near the end: a line every 30 s says how
    # far the sweep got, so that a sweep cut short by a time limit still shows what it checked.
    progress = {"t": time.monotonic(), "t0": time.monotonic()}

    def rerun(job):
        return (f"{sys.executable} {script} {exe} --target {target} --seed {base_seed} "
                f"--variant {job.v.label} --size {job.key}")

    def work(job):
        v = job.v
        t0 = time.monotonic()
        try:
            res, cmd, seed, d = run_one(exe, job, base_seed, workdir)
        except Exception as e:  # a bug of the test itself: report it as a failure, keep going
            res, cmd, seed, d = (Result(Result.FAIL, f"test error: {type(e).__name__}: {e}"), "",
                                 job_seed(base_seed, v.name, job.key), None)
        keep = None
        if d is not None:
            if res.status == Result.FAIL and dir_bytes(d) <= KEEP_LIMIT_BYTES:
                keep = d
            else:
                shutil.rmtree(d, ignore_errors=True)
        with lock:
            counts[res.status] += 1
            per_variant[v.key][res.status] += 1
            if res.status == Result.REFUSED:
                refusals[v.limit] += 1
            if res.status == Result.FAIL:
                failures.append((v.name, job.label(), res.message, rerun(job), seed, keep))
                print(f"FAIL {v.name} size {job.label()} seed {seed}: {res.message}", flush=True)
                print(f"     rerun: {rerun(job)}", flush=True)
                if keep:
                    print(f"     files kept: {cmd}", flush=True)
            elif opt.verbose:
                print(f"  {res.status:7s} {v.name} size {job.label()} seed {seed} "
                      f"({time.monotonic() - t0:.1f} s)", flush=True)
            left[v.key] -= 1
            now = time.monotonic()
            if now - progress["t"] >= 30:
                progress["t"] = now
                print(f"progress: {sum(counts.values())} of {len(jobs)} runs done in "
                      f"{now - progress['t0']:.0f} s: {counts[Result.PASS]} passed, "
                      f"{counts[Result.REFUSED]} refused, {counts[Result.FAIL]} failed", flush=True)
            if left[v.key] == 0:
                c = per_variant[v.key]
                n = sum(c.values())
                tag = "ok  " if c[Result.FAIL] == 0 else "FAIL"
                extra = f", {c[Result.REFUSED]} refused ({v.limit})" if c[Result.REFUSED] else ""
                extra += f", {c[Result.FAIL]} failed" if c[Result.FAIL] else ""
                print(f"{tag} {v.name:40s} {n} runs: {c[Result.PASS]} passed{extra}", flush=True)

    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, opt.jobs)) as pool:
        list(pool.map(work, jobs))

    # Every variant must pass something: a variant whose every run was refused (or failed) shows
    # nothing that works. Not applied to a --size rerun, which runs what it is told, nor to
    # --default-size-only, where a variant that holds rows on chip refuses its one run in its
    # declared words (the --no-default-size half shows what it runs), nor, in the
    # --no-default-size half, to an autoscheduled variant: it runs its default size only (its
    # declared limit), which the --default-size-only half runs, and refused the rest as declared.
    if not opt.size and not opt.default_size_only:
        for key, c in per_variant.items():
            if c[Result.PASS] == 0 and c[Result.FAIL] == 0:
                v = by_key[key]
                if opt.no_default_size and v.limit == "autoscheduled":
                    print(f"note {v.name}: its one size is its default size (run by "
                          f"--default-size-only); all {c[Result.REFUSED]} others refused as "
                          "declared", flush=True)
                    continue
                why = (" (--no-default-size left out its default size, which it must pass)"
                       if opt.no_default_size else "")
                variant_failure(v.name, f"passed no run: all {c[Result.REFUSED]} "
                                f"refused{why}")

    kept = any(f[5] for f in failures)
    if not kept:
        shutil.rmtree(workdir, ignore_errors=True)
    n_shapes = len({(j.v.pipeline, j.key) for j in jobs})  # pipeline x size (x special)
    failed_runs = counts[Result.FAIL]
    other_failures = len(failures) - failed_runs
    wall = time.monotonic() - start
    print()
    if failures:
        print(f"{len(failures)} failures (base seed {base_seed}):")
        for name, label, message, cmd, seed, keep in failures:
            print(f"  {name} size {label}" + (f" seed {seed}" if seed is not None else "")
                  + f": {message[:300]}")
    print(f"summary ({target}): {len(variants)} variants, {n_shapes} shapes (pipeline x size, with "
          f"the default sizes and special inputs) over {len({v.pipeline for v in variants})} "
          f"pipelines, {len(jobs)} runs: {counts[Result.PASS]} passed, {counts[Result.REFUSED]} "
          f"refused (declared limits), {failed_runs} failed, {other_failures} other failures "
          f"(listing, references, variants that passed nothing), {wall:.1f} s, seed {base_seed}")
    print(f"refused: {counts[Result.REFUSED]} runs, by declared limit: "
          f"{refusals['autoscheduled']} autoscheduled, {refusals['one_shape']} one_shape, "
          f"{refusals['row_length']} row_length "
          f"(counted as passed below)")
    print(harness.summary_line(counts[Result.PASS] + counts[Result.REFUSED], len(failures), 0),
          flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
