#!/usr/bin/env python3
"""Every CUDA variant through compute-sanitizer: memcheck, racecheck, initcheck and synccheck.
Run on the GPU machine with the carried `fuselab` executable:

    python3 gpu/sanitize_cuda.py --bin .carry/fuselab --out $OUT/sanitizers [--tools memcheck,...]

Each (tool, pipeline) is one process: `fuselab bench --once --check --target cuda` over the
pipeline's hand-written and hand-scheduled variants at an odd size that straddles their tiles,
and a second one for its autoscheduled variants at the smallest size of AUTO_SIZES they accept
(probed first without a sanitizer; their default size if none): initcheck of stencil_chain_k8's
`auto` at its default 8192x8192 ran past 240 s.
Halide's device-allocation reuse is off (FUSELAB_DEVICE_ALLOCATION_REUSE=0), so that an overrun
lands outside its allocation. Reports are attributed to variants by the bench's progress lines,
which it prints (and flushes) before each call; a process that fails is rerun one variant at a
time. Writes sanitizers.json and the table sanitizers.md (`| pipeline/schedule | memcheck |
racecheck | initcheck | synccheck |`, each cell the error count), raw logs beside them.
"""
import argparse
import concurrent.futures
import datetime
import json
import os
import re
import subprocess
import sys
import tempfile
import threading
import time

TOOLS = ["memcheck", "racecheck", "initcheck", "synccheck"]  # the table's columns
ODD = {0: "1000003", 1: "1031x517", 3: "263x131x5x17"}  # by the number of x in a size
# Candidate sizes for the autoscheduled variants, smallest first, by the number of x in a size;
# each variant takes the first its tiles fit (Halide's autoschedulers split without tail guards).
AUTO_SIZES = {0: ["1048576", "16777216"], 1: ["1024x1024", "2048x2048", "4096x4096"], 3: []}
PROGRESS = re.compile(r"^\s*\[\d+\] (\S+)/(\S+)/(?:cpu|cuda)(?:/\S+)? (\S+) \.\.\.$")
REPORT = re.compile(r"^========= (Invalid|Race|Uninitialized|Barrier|Error|Warning|Program hit|"
                    r"Malloc|Cuda|Illegal|Out-of-range|Misaligned|Divergent|Hazard)")
# memcheck, initcheck and synccheck end with "ERROR SUMMARY: N errors"; racecheck with
# "RACECHECK SUMMARY: H hazards displayed (E errors, W warnings)": its count is E + W.
SUMMARY = re.compile(r"ERROR SUMMARY: (\d+) error|RACECHECK SUMMARY: \d+ hazards? displayed "
                     r"\((\d+) errors?, (\d+) warnings?\)")


def summary_count(m):
    return int(m.group(1)) if m.group(1) is not None else int(m.group(2)) + int(m.group(3))


def tool_args(tool):
    args = ["compute-sanitizer", "--tool", tool, "--print-limit", "100", "--error-exitcode", "0"]
    if tool == "racecheck":
        args += ["--racecheck-report", "all"]
    if tool == "memcheck":
        args += ["--leak-check", "no"]
    return args


def run(tool, fuselab, pipeline, schedules, size, log, check=True, dtype="float32"):
    """{variant: errors} for one process, attributed by the bench's progress lines; and whether
    the process ended cleanly (every variant reached, exit status 0 or 2)."""
    cmd = tool_args(tool) + [fuselab, "bench", "--target", "cuda", "--once",
                             "--check" if check else "--no-check",
                             "--pipeline", pipeline, "--dtype", dtype, "--size", size,
                             "--json", os.devnull]
    for s in schedules:
        cmd += ["--schedule", s]
    env = dict(os.environ, FUSELAB_DEVICE_ALLOCATION_REUSE="0", PYTHONUNBUFFERED="1")
    t0 = time.time()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=240)
    except subprocess.TimeoutExpired as e:
        with open(log, "a") as f:
            f.write(f"$ {' '.join(cmd)}\n# TIMED OUT after 240 s\n")
        p = subprocess.CompletedProcess(cmd, -9, e.stdout or "", e.stderr or "")
        if isinstance(p.stdout, bytes):
            p.stdout, p.stderr = p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")
        return -1, [], False, False, p
    with open(log, "a") as f:
        f.write(f"$ {' '.join(cmd)}\n# exit {p.returncode} in {time.time() - t0:.1f} s\n")
        f.write(p.stderr + p.stdout + "\n")
    # The bench's progress goes to stderr, compute-sanitizer's reports to stdout: both were
    # captured whole; attribute reports by their order in stderr+stdout interleaving is not
    # possible, so a process with any report is rerun one variant at a time by the caller.
    reached = [m.group(2) for line in p.stderr.splitlines() if (m := PROGRESS.match(line))]
    summary = SUMMARY.search(p.stdout)
    errors = summary_count(summary) if summary else (0 if p.returncode in (0, 2) else -1)
    wrong = "WRONG" in p.stdout
    clean = p.returncode in (0, 2) and len(reached) == len(schedules) and summary is not None
    return errors, reached, clean, wrong, p


def accepted_size(fuselab, pipeline, schedule, default_size):
    """The smallest AUTO_SIZES entry the variant runs (no refusal, no sanitizer), else its
    default size."""
    for size in AUTO_SIZES[default_size.count("x")]:
        with tempfile.NamedTemporaryFile(suffix=".json") as out:
            cmd = [fuselab, "bench", "--target", "cuda", "--once", "--no-check", "--pipeline",
                   pipeline, "--size", size, "--schedule", schedule, "--json", out.name]
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
            try:
                records = json.load(open(out.name))["records"]
            except (ValueError, KeyError):
                continue
        if p.returncode == 0 and records and not any("error" in r for r in records):
            return size
    return default_size


def write(args, results, wrong, t0, meta=None):
    """sanitizers.json and sanitizers.md, from what has run so far (meta: the run's, given)."""
    meta = meta or {"date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
            "command": " ".join([sys.executable] + sys.argv),
            "compute_sanitizer": subprocess.run(["compute-sanitizer", "--version"],
                                                capture_output=True, text=True).stdout.strip(),
            "gpu": subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version",
                                   "--format=csv,noheader"], capture_output=True,
                                  text=True).stdout.strip(),
            "sizes": "hand-scheduled variants at " + ", ".join(ODD.values()) +
                     " (by size format); autoscheduled ones at the smallest of " +
                     ", ".join(s for v in AUTO_SIZES.values() for s in v) +
                     " (by size format) that they accept, else their default size",
            "device_allocation_reuse": "off", "seconds": round(time.time() - t0)}
    with open(os.path.join(args.out, "sanitizers.json"), "w") as f:
        json.dump({"meta": meta, "results": results, "wrong_outputs": sorted(wrong)}, f, indent=1)
    tools = args.tools.split(",")
    lines = [f"# compute-sanitizer over every CUDA variant ({meta['date']}, {meta['gpu']})", "",
             f"Command: `{meta['command']}`. {meta['compute_sanitizer'].splitlines()[-1] if meta['compute_sanitizer'] else ''}",
             f"Sizes: {meta['sizes']}. Halide's device-allocation reuse off. "
             f"Each cell: errors reported (\"failed (n)\": the process did not finish). Outputs checked against float64 "
             f"in the same runs: {'all ok' if not wrong else 'WRONG: ' + ', '.join(sorted(wrong))}.",
             *([f"Merged from: {'; '.join(meta['merged_from'])}."] if meta.get("merged_from") else []),
             "", "| pipeline/schedule | " + " | ".join(tools) + " |",
             "|---|" + "---|" * len(tools)]
    for name in sorted(results):
        lines.append(f"| {name} | " + " | ".join(str(results[name].get(t, "-")) for t in tools) + " |")
    with open(os.path.join(args.out, "sanitizers.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    return lines


def from_logs(args):
    """The table again from a run's raw logs (its `$ command` blocks): a block naming one
    variant counts for it; a block of several with no report counts 0 for each."""
    results, timed_out = {}, {}
    single = {}  # (variant, tool) -> count from a one-variant block
    for name in sorted(os.listdir(args.out)):
        if not name.endswith(".log") or name.split(".")[0] not in TOOLS:
            continue
        tool = name.split(".")[0]
        text = open(os.path.join(args.out, name)).read()
        for block in text.split("$ compute-sanitizer ")[1:]:
            cmd = block.splitlines()[0].split()
            pipeline = cmd[cmd.index("--pipeline") + 1]
            dtype = cmd[cmd.index("--dtype") + 1] if "--dtype" in cmd else "float32"
            schedules = [cmd[i + 1] for i, a in enumerate(cmd) if a == "--schedule"]
            if dtype != "float32":  # the variant's name: pipeline/schedule/dtype
                schedules = [f"{sch}/{dtype}" for sch in schedules]
            if "# TIMED OUT" in block:
                for sch in schedules:
                    timed_out.setdefault(f"{pipeline}/{sch}", set()).add(tool)
                continue
            m = SUMMARY.search(block)
            if not m:
                continue
            count = summary_count(m)
            for sch in schedules:
                key = (f"{pipeline}/{sch}", tool)
                if len(schedules) == 1:
                    single[key] = count
                elif count == 0:
                    results.setdefault(key[0], {})[tool] = 0
    for (variant, tool), count in single.items():
        results.setdefault(variant, {})[tool] = count
    for variant, tools in timed_out.items():
        for tool in tools:
            if tool not in results.get(variant, {}):
                results.setdefault(variant, {})[tool] = "timed out"
    return results


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True, help="the fuselab executable")
    ap.add_argument("--out", required=True)
    ap.add_argument("--tools", default=",".join(TOOLS))
    ap.add_argument("--order", default="memcheck,initcheck,synccheck,racecheck",
                    help="the order the tools run in (racecheck, the slowest, last)")
    ap.add_argument("--pipelines", default="", help="comma-separated; default: all")
    ap.add_argument("--schedules", default="", help="comma-separated; default: all")
    ap.add_argument("--jobs", type=int, default=6, help="sanitizer processes at once")
    ap.add_argument("--merge", nargs="+", metavar="SANITIZERS_JSON",
                    help="write one table in --out from these runs' sanitizers.json (no runs); with a --bin "
                         "other than none, only the variants it lists")
    ap.add_argument("--from-logs", action="store_true",
                    help="rebuild sanitizers.{json,md} in --out from the raw logs there (no runs)")
    args = ap.parse_args()
    if args.merge:
        # One table from several runs' sanitizers.json: a later file's cells replace an
        # earlier one's for the variants it ran (e.g. a rerun of the pipelines that changed).
        parts = []
        for path in args.merge:
            with open(path) as f:
                parts.append(json.load(f))
        results, wrong = {}, set()
        for part in parts:
            for variant, cells in part["results"].items():
                results.setdefault(variant, {}).update(cells)
            wrong |= set(part.get("wrong_outputs", []))
        dropped = []
        if args.bin != "none":  # keep the variants this build has (a removed one's row goes)
            listed = json.loads(subprocess.run([args.bin, "list", "--json", "--target", "cuda"],
                                               capture_output=True, text=True, check=True).stdout)
            have = {f"{v['pipeline']}/{v['schedule']}" + ("" if v.get("dtype", "float32") == "float32"
                                                          else f"/{v['dtype']}") for v in listed}
            dropped = sorted(v for v in results if v not in have)
            results = {v: c for v, c in results.items() if v in have}
        meta = dict(parts[0]["meta"],
                    date=datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
                    command=" ".join([sys.executable] + sys.argv),
                    sizes=" / ".join(dict.fromkeys(p["meta"]["sizes"] for p in parts)),
                    merged_from=[f"{path} ({p['meta']['date']}: {len(p['results'])} variants)"
                                 for path, p in zip(args.merge, parts)]
                    + ([f"rows dropped, not in {args.bin}: {', '.join(dropped)}"] if dropped else []))
        os.makedirs(args.out, exist_ok=True)
        lines = write(args, results, wrong, time.time(), meta)
        print("\n".join(lines))
        return 0
    if args.from_logs:
        results = from_logs(args)
        with open(os.path.join(args.out, "sanitizers.json")) as f:
            old = json.load(f)
        meta = dict(old["meta"], rebuilt_from_logs=" ".join([sys.executable] + sys.argv))
        lines = write(args, results, set(old.get("wrong_outputs", [])), time.time(), meta)
        print("\n".join(lines))
        return 0
    os.makedirs(args.out, exist_ok=True)
    listed = json.loads(subprocess.run([args.bin, "list", "--json", "--target", "cuda"],
                                       capture_output=True, text=True, check=True).stdout)
    pipelines = {}  # by (pipeline, storage type): one bench process's variants
    for v in listed:
        pipelines.setdefault((v["pipeline"], v.get("dtype", "float32")), []).append(v)
    if args.pipelines:
        pipelines = {p: vs for p, vs in pipelines.items() if p[0] in args.pipelines.split(",")}
    if args.schedules:
        pipelines = {p: [v for v in vs if v["schedule"] in args.schedules.split(",")]
                     for p, vs in pipelines.items()}
        pipelines = {p: vs for p, vs in pipelines.items() if vs}
    results = {}  # variant -> tool -> errors
    wrong = set()
    lock = threading.Lock()
    t0 = time.time()
    tools = [t for t in args.order.split(",") if t in args.tools.split(",")]
    for tool in tools:
        open(os.path.join(args.out, f"{tool}.log"), "w").close()

    def job(tool, key, schedules, size, check):
        """One group in one process; a group with any report (or a failure) is rerun one
        variant a process, so that each count is exactly one variant's."""
        pipeline, dtype = key
        log = os.path.join(args.out, f"{tool}.{pipeline}.{dtype}.{'check' if check else 'auto'}.log")
        errors, _, clean, bad, _ = run(tool, args.bin, pipeline, schedules, size, log, check, dtype)
        found = {}
        if clean and (errors == 0 or len(schedules) == 1):  # each count is one variant's
            found = {s: (errors, bad) for s in schedules}
        else:
            for s in schedules:
                e, _, ok, bad1, _ = run(tool, args.bin, pipeline, [s], size, log, check, dtype)
                # A run that did not finish counts as failed, with what it reported.
                found[s] = (e if ok else f"failed ({e})", bad1)
        with lock:
            for s, (e, b) in found.items():
                name = f"{pipeline}/{s}" + ("" if dtype == "float32" else f"/{dtype}")
                results.setdefault(name, {})[tool] = e
                if b:
                    wrong.add(name)
            print(f"{tool} {pipeline} ({len(schedules)} variants at {size}): done "
                  f"({time.time() - t0:.0f} s)", flush=True)
            write(args, results, wrong, t0)  # as it goes: a run cut short keeps what it did

    auto_size = {(v["pipeline"], v["schedule"]):
                 accepted_size(args.bin, v["pipeline"], v["schedule"], v["default_size"])
                 for vs in pipelines.values() for v in vs if v["autoscheduler"]}
    print("autoscheduled variants' sizes: " +
          ", ".join(f"{p}/{s} {n}" for (p, s), n in sorted(auto_size.items())), flush=True)
    jobs = []
    for tool in tools:
        for pipeline, vs in pipelines.items():
            # Hand-scheduled variants at an odd size, outputs checked; autoscheduled ones at
            # their default size (what they accept), unchecked (the tests check them; the
            # float64 reference of a default size costs more than the sanitizer run).
            hand = [v["schedule"] for v in vs if not v["autoscheduler"]]
            if hand:
                jobs.append((tool, pipeline, hand, ODD[vs[0]["default_size"].count("x")], True))
            for v in vs:
                if v["autoscheduler"]:
                    size = auto_size[(pipeline[0], v["schedule"])]
                    jobs.append((tool, pipeline, [v["schedule"]], size, False))
    # The processes mostly wait on the host (instrumentation, JIT): several at once on one GPU.
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for f in [pool.submit(job, *j) for j in jobs]:
            f.result()
    for tool in tools:  # one log a tool, from the jobs' logs
        with open(os.path.join(args.out, f"{tool}.log"), "w") as out:
            for name in sorted(os.listdir(args.out)):
                if name.startswith(tool + ".") and name != f"{tool}.log":
                    path = os.path.join(args.out, name)
                    out.write(open(path).read())
                    os.remove(path)
    print("\n".join(write(args, results, wrong, t0)))
    total = sum(1 for r in results.values() for e in r.values() if e != 0)
    return 1 if total or wrong else 0


if __name__ == "__main__":
    sys.exit(main())
