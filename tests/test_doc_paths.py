#!/usr/bin/env python3
"""Every repository path that the README, results/README.md and the schedules' header comments
name resolves: a moved or removed file or run folder fails here, not in a reader's hands.

    python3 tests/test_doc_paths.py
"""
import glob
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOP = sorted(d for d in os.listdir(ROOT) if os.path.isdir(os.path.join(ROOT, d)) and not d.startswith("."))
# A path starts at a top-level folder of the tree (or is results/runs' DATE-... name).
PATH = re.compile(r"(?<![\w./-])((?:%s)/[\w./*-]*[\w*])" % "|".join(map(re.escape, TOP + [".ci"])))
RUN = re.compile(r"(?<![\w/-])(20\d\d-\d\d-\d\d-(?:h200|cpu)[\w-]*)")


def header(path):
    """A schedule file's leading comment block."""
    lines = []
    for line in open(path, encoding="utf-8"):
        if not line.startswith("//"):
            break
        lines.append(line)
    return "".join(lines)


def missing_in(text):
    missing = []
    for p in PATH.findall(text):
        p = p.rstrip(".,;:")
        if "<" in p or p.startswith("build") or re.search(r"\b[A-Z]{2,}\b", p):
            continue  # a placeholder (schedules/<generator>, runs/DATE-h200-sN), or a build output
        if not glob.glob(os.path.join(ROOT, p)):
            missing.append(p)
    for run in RUN.findall(text):
        run = run.rstrip(".,;:-")
        if not os.path.isdir(os.path.join(ROOT, "results", "runs", run)):
            missing.append("results/runs/" + run)
    return missing


def main():
    docs = {"README.md": open(os.path.join(ROOT, "README.md"), encoding="utf-8").read(),
            "results/README.md": open(os.path.join(ROOT, "results", "README.md"), encoding="utf-8").read()}
    for path in sorted(glob.glob(os.path.join(ROOT, "schedules", "**", "*.cpp"), recursive=True)):
        docs[os.path.relpath(path, ROOT)] = header(path)
    bad_files = 0
    for name, text in docs.items():
        missing = sorted(set(missing_in(text)))
        for p in missing:
            print(f"FAIL {name} names {p}, which does not exist")
        bad_files += bool(missing)
    print(f"{len(docs)} files read (README.md, results/README.md, every schedule's header)")
    print(f"{len(docs) - bad_files} passed, {bad_files} failed, 0 skipped")
    return 1 if bad_files else 0


if __name__ == "__main__":
    sys.exit(main())
