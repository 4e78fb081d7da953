#!/usr/bin/env python3
"""Registers, spills and shared memory of a CUDA variant's kernels (seed §1.6's ledger columns).

Input: the variant's PTX, which Halide 21 writes as its `device_code` output (`-e device_code` on
the generator's command line; `DEVICE_CODE <var>` in `add_halide_library`, a file named
`<library>.device_code`: the PTX text of every kernel of the module; the `assembly` output is the
host's assembly, with the PTX only as an embedded byte blob). Optionally the variant's lowered
statement (the `stmt` output, `STMT <var>`), whose `halide_cuda_run` calls carry each kernel's
block size and dynamic shared-memory bytes.

It runs `ptxas -arch=sm_90 -v -maxrregcount=128` (the H200's machine code under the 128-register
JIT cap fuselab's runtime sets) and prints one JSON object a variant:

  {"kernels": [{"name": ..., "registers": ..., "spill_store_bytes": ..., "spill_load_bytes": ...,
                "shared_bytes": ..., ...}]}

`shared_bytes` is shared memory a block: ptxas's static `smem` plus the launch's dynamic bytes
from the statement (Halide places its GPUShared allocations in dynamic shared memory), the
statement's lets substituted; it is null where the dynamic bytes depend on the call and no
--param gives the sizes (`dynamic_shared_bytes` then holds the expression). Halide computes the
size of a fused shared allocation at run time in some kernels (`...shared_size[0]`): those stay
expressions.
Extra keys: `static_shared_bytes`, `dynamic_shared_bytes`, `stack_bytes` (ptxas's stack frame),
`constant_bytes` (cmem[0], the kernel parameters), `threads` (the block's x, y, z where the
statement gives them), `launched` (whether the statement launches it).

Usage: ptx_resources.py VARIANT.device_code [--stmt VARIANT.stmt] [--param NAME=VALUE ...]
       [--ptxas PATH] [--arch sm_90] [--maxrregcount 128] [--indent N]
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

FUNC = re.compile(r"Compiling entry function '([^']+)'")
PROPS = re.compile(r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads")
USED = re.compile(r"Used (\d+) registers")
SMEM = re.compile(r"(\d+) bytes smem")
CMEM = re.compile(r"(\d+) bytes cmem\[0\]")


def find_ptxas(given):
    for cand in [given, shutil.which("ptxas"), "/usr/local/cuda/bin/ptxas"]:
        if cand and os.path.exists(cand):
            return cand
    sys.exit("ptx_resources: no ptxas (pass --ptxas, or put CUDA's bin on PATH)")


def run_ptxas(ptxas, ptx, arch, maxrreg):
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [ptxas, f"-arch={arch}", "-v", f"-maxrregcount={maxrreg}", ptx,
               "-o", os.path.join(tmp, "out.cubin")]
        p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"ptx_resources: {' '.join(cmd)} failed:\n{p.stderr}")
    kernels, cur = [], None
    for line in (p.stdout + p.stderr).splitlines():
        m = FUNC.search(line)
        if m:
            cur = {"name": m.group(1), "registers": None, "spill_store_bytes": None,
                   "spill_load_bytes": None, "stack_bytes": None, "static_shared_bytes": 0,
                   "constant_bytes": None}
            kernels.append(cur)
            continue
        if cur is None:
            continue
        m = PROPS.search(line)
        if m:
            cur["stack_bytes"], cur["spill_store_bytes"], cur["spill_load_bytes"] = map(int, m.groups())
        m = USED.search(line)
        if m:
            cur["registers"] = int(m.group(1))
            s = SMEM.search(line)
            cur["static_shared_bytes"] = int(s.group(1)) if s else 0
            c = CMEM.search(line)
            cur["constant_bytes"] = int(c.group(1)) if c else None
    return kernels


def split_args(text):
    """Splits a call's argument text at top-level commas."""
    args, depth, cur = [], 0, []
    for ch in text:
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            if depth == 0:
                break
            depth -= 1
        if ch == "," and depth == 0:
            args.append("".join(cur).strip())
            cur = []
        else:
            cur.append(ch)
    args.append("".join(cur).strip())
    return args


LET = re.compile(r"^\s*let ([\w.$]+) = (.*)$")
NAME = re.compile(r"[A-Za-z_][\w.$]*(?:\[\d+\])?")


def evaluate(expr, lets, params, depth=0):
    """The integer value of a statement's expression, the lets before it substituted and `params`
    (NAME=VALUE, e.g. input.extent.2=16) given; the expanded text where something is unknown."""
    def sub(m):
        n = m.group(0)
        if n in params:
            return str(params[n])
        if n in lets and depth < 20:
            v = evaluate(lets[n], lets, params, depth + 1)
            return str(v) if isinstance(v, int) else "(" + v + ")"
        return n
    text = NAME.sub(sub, re.sub(r"\((?:u?int\d+)\)", "", expr))
    try:
        py = text.replace("/", "//")
        v = eval(py, {"__builtins__": {}}, {"min": min, "max": max})
        return int(v)
    except Exception:
        return text


def launches(stmt_path, params):
    """kernel name -> (threads [x, y, z], dynamic shared bytes: int, or the expression's text)."""
    out = {}
    lets = {}
    for line in open(stmt_path, encoding="utf-8", errors="replace"):
        m = LET.match(line)
        if m:
            lets[m.group(1)] = m.group(2)
        for m in re.finditer(r"halide_cuda_run\(", line):
            a = split_args(line[m.end():])
            # halide_cuda_run(state, name, blocks x, y, z, threads x, y, z, shared bytes, ...)
            if len(a) < 9:
                continue
            name = a[1].strip('"')
            out[name] = ([evaluate(v, lets, params) for v in a[5:8]], evaluate(a[8], lets, params))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("ptx", help="the variant's device_code output (PTX)")
    ap.add_argument("--stmt", help="the variant's stmt output (block sizes, dynamic shared bytes)")
    ap.add_argument("--ptxas")
    ap.add_argument("--arch", default="sm_90")
    ap.add_argument("--maxrregcount", type=int, default=128)
    ap.add_argument("--param", action="append", default=[],
                    help="NAME=VALUE for the statement's size variables (e.g. input.extent.2=16), "
                         "to evaluate shared-memory sizes that depend on them")
    ap.add_argument("--indent", type=int, default=None)
    args = ap.parse_args()
    params = dict(p.split("=", 1) for p in args.param)
    kernels = run_ptxas(find_ptxas(args.ptxas), args.ptx, args.arch, args.maxrregcount)
    runs = launches(args.stmt, params) if args.stmt else {}
    for k in kernels:
        threads, dyn = runs.get(k["name"], (None, 0 if not args.stmt else None))
        k["launched"] = k["name"] in runs if args.stmt else None
        k["threads"] = threads
        k["dynamic_shared_bytes"] = dyn
        k["shared_bytes"] = k["static_shared_bytes"] + dyn if isinstance(dyn, int) else None
    keys = ["name", "registers", "spill_store_bytes", "spill_load_bytes", "shared_bytes",
            "static_shared_bytes", "dynamic_shared_bytes", "stack_bytes", "constant_bytes",
            "threads", "launched"]
    print(json.dumps({"kernels": [{key: k[key] for key in keys} for k in kernels]},
                     indent=args.indent))


if __name__ == "__main__":
    main()
