#!/usr/bin/env python3
"""Rewrites the CPU part of every schedule file's "// Measured" header line from one CPU run.

    python3 tools/measured_lines.py --json RUN.json --label "2-core AMD EPYC (Zen 5), 2026-12-01,
        bench/results/2026-12-01-cpu-peers" [--dry-run]

RUN.json: a CPU run in bench/results/h200.json's schema (bench/report_cpu.py's input); only its
fuselab records are read. In each schedules/<generator>/<strategy>.cpp, the text of the Measured
comment from "2-core EPYC" on (or the end of the line, where there was no CPU part) becomes
"<label>: <size> <median>, ..." for every CPU size the run timed; the comment is re-wrapped to
100 columns. Files with no record in the run are left alone.
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
    rows = [r for r in records if r.get("kind", "fuselab") == "fuselab" and r["name"] == strategy
            and (r["workload"] == generator or r["workload"].startswith(generator + "_k"))
            and r.get("median_us") and r.get("ok", True) and not r.get("error")]
    parts = []
    for r in rows:
        prefix = r["workload"][len(generator) + 1:] + " " if r["workload"] != generator else ""
        parts.append(f"{prefix}{r['size']} {fmt(r['median_us'])}")
    return parts


def rewrite(path, parts, label, dry):
    lines = open(path).read().split("\n")
    start = next((i for i, l in enumerate(lines) if l.startswith("// Measured")), None)
    if start is None:
        return False
    end = start + 1
    while end < len(lines) and lines[end].startswith("// ") and not re.match(r"// (summary|autoscheduler|targets|pipelines):", lines[end]):
        end += 1
    text = " ".join(l[3:].strip() for l in lines[start:end])
    cpu = f"{label}: {', '.join(parts)}."
    m = re.search(r"(;\s*)?2-core EPYC.*$", text)
    if m:
        head = text[:m.start()]
        if re.fullmatch(r"Measured \S+ \(bench/results\): *", head):  # a CPU part only: no old date
            head = "Measured "
        text = head + ("; " if head.rstrip().endswith(tuple("0123456789s")) or m.group(1) else "") + cpu
        text = text.replace(": ; ", ": ")
    else:
        text = text.rstrip(".") + "; " + cpu
    # A figure and its unit stay on one line.
    text = re.sub(r"(\d) (us|ms)\b", "\\1\u00a0\\2", text)
    new = textwrap.wrap(text, width=97, break_on_hyphens=False, break_long_words=False)
    new = ["// " + l.replace("\u00a0", " ") for l in new]
    if dry:
        print(f"{os.path.relpath(path, ROOT)}:\n  " + "\n  ".join(new))
        return True
    lines[start:end] = new
    open(path, "w").write("\n".join(lines))
    return True


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--json", required=True)
    ap.add_argument("--label", required=True)
    ap.add_argument("--dry-run", action="store_true")
    args = ap.parse_args()
    records = json.load(open(args.json))["records"]
    for path in sorted(glob.glob(os.path.join(ROOT, "schedules", "*", "*.cpp"))):
        generator = os.path.basename(os.path.dirname(path))
        strategy = os.path.splitext(os.path.basename(path))[0]
        parts = figures(records, generator, strategy)
        if parts:
            rewrite(path, parts, args.label, args.dry_run)


if __name__ == "__main__":
    main()
