#!/usr/bin/env python3
"""Rewrites every schedule file's "// Measured" header comment from one H200 and one CPU run.

    python3 tools/measured_lines.py --h200 results/h200.json --cpu results/cpu.json \
        --date 2026-12-01 --source "results/runs/2026-12-01-h200-s6, -cpu-s6" [--dry-run]

Both files are in results/h200.json's schema; only their direct fuselab records are read
(kind "fuselab" or "seed_cuda", ok, timed). In schedules/<generator>/<strategy>.cpp the Measured
comment (its line and the comment lines after it, up to a header tag) becomes "Measured DATE
(SOURCE): H200: <size> <median>, ...; 2-core EPYC (Zen 5): <size> <median>, ...", for every size
each run timed the strategy at; a pipeline that is one of several of a generator is named before
its sizes (stencil_chain's k2 ...). The comment is re-wrapped to 100 columns; a file neither run
timed keeps its line. A file without a Measured line gets one before its summary tag.
The row reductions (softmax, rmsnorm_residual, layernorm) get their bandwidth instead, per
storage type and N (TB/s on the H200, GB/s on the CPU, at the minimum bytes), a * marking each N
where the strategy was the fastest of its pipeline and type. --generators limits the rewrite to
some generators (the others' lines keep the run they cite).
"""
import argparse
import glob
import json
import os
import re
import textwrap

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")


def fmt(us):
    return f"{us / 1000:.1f} ms" if us >= 10000 else f"{us:.1f} us"


def figures(records, generator, strategy):
    parts = []
    for r in records:
        if (r.get("kind", "fuselab") not in ("fuselab", "seed_cuda") or r["name"] != strategy
                or not r.get("median_us") or not r.get("ok", True) or r.get("error")):
            continue
        wl = r["workload"]
        if wl == generator:
            parts.append(f"{r['size']} {fmt(r['median_us'])}")
        elif wl.startswith(generator + "_k"):  # stencil_chain_k2 of stencil_chain
            parts.append(f"{wl[len(generator) + 1:]} {r['size']} {fmt(r['median_us'])}")
        elif generator.startswith(wl + "_"):  # conv_relu_pool_const's variants are conv_relu_pool's
            parts.append(f"{r['size']} {fmt(r['median_us'])}")
    return parts


ROWS = ("softmax", "rmsnorm_residual", "layernorm")


def short_n(n):
    return f"{n // 1024}k" if n >= 1024 and n % 1024 == 0 else str(n)


def row_figures(records, generator, strategy, unit):
    """'float32 256 1.85*, 1k 3.59*, ...; bfloat16 ...' for one row strategy, bandwidth at the
    minimum bytes in `unit` (1e6: TB/s from bytes/us, 1e3: GB/s)."""
    by, best = {}, {}
    for r in records:
        if (r.get("kind", "fuselab") != "fuselab" or r["workload"] != generator
                or not r.get("median_us") or not r.get("ok", True) or r.get("error")):
            continue
        dt, n = r.get("dtype", "float32"), int(r["size"].split("x")[0])
        bw = r["min_bytes"] / r["median_us"] / unit
        best[(dt, n)] = max(best.get((dt, n), 0), bw)
        if r["name"] == strategy:
            by.setdefault(dt, {})[n] = bw
    out = []
    for dt in ("float32", "bfloat16", "float16"):
        if dt in by:
            cells = [f"{short_n(n)} {bw:.2f}" + ("*" if bw >= best[(dt, n)] else "")
                     for n, bw in sorted(by[dt].items())]
            out.append(f"{dt} " + ", ".join(cells))
    return "; ".join(out)


def rewrite(path, text, dry):
    lines = open(path).read().split("\n")
    start = next((i for i, l in enumerate(lines) if l.startswith("// Measured")), None)
    tag = re.compile(r"// (summary|autoscheduler|targets|pipelines):")
    if start is None:
        start = end = next((i for i, l in enumerate(lines) if tag.match(l)), 0)
    else:
        end = start + 1
        while end < len(lines) and lines[end].startswith("// ") and not tag.match(lines[end]):
            end += 1
    text = re.sub(r"(\d) (us|ms)\b", "\\1\u00a0\\2", text)  # a figure and its unit on one line
    new = ["// " + l.replace("\u00a0", " ")
           for l in textwrap.wrap(text, width=97, break_on_hyphens=False, break_long_words=False)]
    if dry:
        print(f"{os.path.relpath(path, ROOT)}:\n  " + "\n  ".join(new))
        return
    lines[start:end] = new
    open(path, "w").write("\n".join(lines))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--h200", required=True)
    ap.add_argument("--cpu", required=True)
    ap.add_argument("--date", required=True)
    ap.add_argument("--source", required=True)
    ap.add_argument("--dry-run", action="store_true")
    ap.add_argument("--generators", help="comma-separated: only these schedules/<generator>/")
    args = ap.parse_args()
    gpu = json.load(open(args.h200))["records"]
    cpu = json.load(open(args.cpu))["records"]
    only = set(args.generators.split(",")) if args.generators else None
    for path in sorted(glob.glob(os.path.join(ROOT, "schedules", "*", "*.cpp"))):
        generator = os.path.basename(os.path.dirname(path))
        strategy = os.path.splitext(os.path.basename(path))[0]
        if only is not None and generator not in only:
            continue
        if generator in ROWS:
            g, c = row_figures(gpu, generator, strategy, 1e6), row_figures(cpu, generator, strategy, 1e3)
            if not g and not c:
                continue
            parts = [f"H200 TB/s: {g}" if g else "H200: not timed",
                     f"2-core CPU GB/s: {c}" if c else "CPU: not built" if "targets: cuda" in
                     open(path).read() else "CPU: not timed"]
            rewrite(path, f"Measured {args.date} ({args.source}), at the minimum bytes, 2^26 "
                    "elements a call on the H200 and 2^22 on the CPU, by N (*: the fastest "
                    "strategy there): " + "; ".join(parts) + ".", args.dry_run)
            continue
        g, c = figures(gpu, generator, strategy), figures(cpu, generator, strategy)
        if not g and not c:
            continue
        parts = [f"H200: {', '.join(g)}" if g else "H200: not built for CUDA" if "targets: cpu" in
                 open(path).read() else "H200: not timed", f"2-core EPYC (Zen 5): {', '.join(c)}"
                 if c else "2-core EPYC: not timed"]
        rewrite(path, f"Measured {args.date} ({args.source}): " + "; ".join(parts) + ".", args.dry_run)


if __name__ == "__main__":
    main()
