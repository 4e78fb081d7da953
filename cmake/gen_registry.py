#!/usr/bin/env python3
"""Writes a variant registry (<target>.gen.cpp) from the build's manifest, each variant's lowered
statement (Halide's STMT output) and, for CUDA variants, ptxas's report on its PTX.

The ledger comes from the statement, never from a hand-typed number:
- kernels per call: the `halide_cuda_run` calls on one path through the pipeline's body (the
  larger branch of an if/else, e.g. a schedule's specializations; -1 if one sits in a host loop,
  where the count depends on the size);
- intermediates: the `allocate` nodes of the pipeline's body that are outside every loop and in
  global or heap memory (not Stack, Register, GPUShared or GPULocal): buffers that make a round
  trip through memory. Their size expressions are translated into C++ so that the runtime can
  evaluate them for the buffers of any call. Unlike the kernels, they are summed over every
  branch of an if/else (no schedule has an intermediate inside a specialization yet);
- per CUDA kernel: registers and spill bytes from `ptxas -arch=sm_90 -v` under the runtime's
  register cap, threads per block and shared memory per block (static plus Halide's dynamic,
  where the statement gives it as a constant) from the kernel's launch. ptxas runs only on PTX it
  has not seen (a cache beside the output).
The generated file registers its variants with the runtime as it is linked.
"""
import argparse
import hashlib
import json
import os
import re
import subprocess
import sys

SCRATCH_MEMORY = ("Stack", "Register", "GPUShared", "GPULocal", "LockedCache", "VTCM", "AMXTile")
TYPE_BYTES = {"float32": 4, "float64": 8, "int32": 4, "uint32": 4, "int16": 2, "uint16": 2,
              "int8": 1, "uint8": 1, "int64": 8, "uint64": 8, "bool": 1, "uint1": 1}


class Unsupported(Exception):
    pass


# --- a small parser for Halide's printed integer expressions, emitting C++ -------------------
TOKEN = re.compile(r"\s*(?:(\d+)|([A-Za-z_][A-Za-z0-9_.$]*)|(&&|\|\||==|!=|<=|>=|[-+*/%<>()!,=]))")
BINARY = {"||": 1, "&&": 2, "==": 3, "!=": 3, "<": 4, "<=": 4, ">": 4, ">=": 4,
          "+": 5, "-": 5, "*": 6, "/": 6, "%": 6}
CAST = re.compile(r"\((u?int(?:1|8|16|32|64)|bool)\)")


def cxx_name(name):
    return "v_" + name.replace(".", "_").replace("$", "_S")


def tokenize(text):
    text = CAST.sub(" ", text)  # integer casts do not change the values involved in sizes
    out, pos = [], 0
    while pos < len(text):
        if text[pos:].strip() == "":
            break
        m = TOKEN.match(text, pos)
        if not m:
            raise Unsupported(text[pos:pos + 30])
        out.append(m.group(1) or m.group(2) or m.group(3))
        pos = m.end()
    return out


class Parser:
    def __init__(self, tokens, names):
        self.t, self.i, self.names, self.bound = tokens, 0, names, set()

    def peek(self):
        return self.t[self.i] if self.i < len(self.t) else None

    def take(self, want=None):
        tok = self.peek()
        if tok is None or (want and tok != want):
            raise Unsupported(f"expected {want}, got {tok}")
        self.i += 1
        return tok

    def expr(self, min_prec=0):
        left = self.unary()
        while self.peek() in BINARY and BINARY[self.peek()] > min_prec:
            op = self.take()
            right = self.expr(BINARY[op])
            if op == "/":
                left = f"fdiv({left}, {right})"
            elif op == "%":
                left = f"fmod({left}, {right})"
            else:
                left = f"({left} {op} {right})"
        return left

    def unary(self):
        tok = self.take()
        if tok == "(":
            inner = self.expr()
            self.take(")")
            return f"({inner})"
        if tok == "-":
            return f"(-{self.unary()})"
        if tok == "!":
            return f"(!{self.unary()})"
        if tok.isdigit():
            return f"int64_t({tok})"
        if tok == "let":  # let NAME = VALUE in BODY
            name = self.take()
            self.take("=")
            value = self.expr()
            self.take("in")
            self.bound.add(name)
            body = self.expr()
            return f"([&] {{ const int64_t {cxx_name(name)} = {value}; return int64_t({body}); }}())"
        if self.peek() == "(":
            self.take("(")
            args = [self.expr()]
            while self.peek() == ",":
                self.take(",")
                args.append(self.expr())
            self.take(")")
            fn = {"min": "imin", "max": "imax", "select": "isel", "likely": "",
                  "likely_if_innermost": ""}.get(tok)
            if fn is None:
                raise Unsupported(f"call to {tok}")
            return f"{fn}({', '.join(args)})"
        if tok not in self.bound:
            self.names.add(tok)
        return cxx_name(tok)


def translate(text, names):
    p = Parser(tokenize(text), names)
    out = p.expr()
    if p.peek() is not None:
        raise Unsupported(f"trailing {p.peek()}")
    return out


# --- reading a lowered statement ---------------------------------------------------------------
def pipeline_body(path):
    lines = open(path, encoding="utf-8", errors="replace").read().splitlines()
    start = next(i for i, l in enumerate(lines) if l.startswith("external_plus_metadata func "))
    return lines[start + 1:]


ALLOC = re.compile(r"^\s*allocate (\S+)\[(\w+)((?: \* [^\]]+)?)\](.*)$")
LET = re.compile(r"^\s*let (\S+) = (.*)$")


def read_ledger(path):
    """Returns (kernels, [(name, elem_bytes, extent_text)], [let (name, text)])."""
    in_loop_launch = False
    allocs, lets, stack = [], [], []
    # Launch counts per open block; an if's branches are kept apart and the larger one counts.
    counts = [0]
    branches = []  # per open if: the counts of its finished branches
    for line in pipeline_body(path):
        s = line.strip()
        if s == "}" or s.startswith("} "):
            if stack:
                kind = stack.pop()
                inner = counts.pop()
                if kind == "if":
                    done = branches.pop() + [inner]
                    if s.startswith("} else") and s.endswith("{"):
                        stack.append("if")
                        counts.append(0)
                        branches.append(done)
                    else:
                        counts[-1] += max(done)
                else:
                    counts[-1] += inner
            continue
        in_loop = "for" in stack
        if "halide_cuda_run(" in s:
            counts[-1] += 1
            in_loop_launch |= in_loop
        m = ALLOC.match(line)
        if m and not in_loop:
            name, typ, extents, rest = m.groups()
            if not any(f"in {mem}" in rest for mem in SCRATCH_MEMORY):
                allocs.append((name, TYPE_BYTES.get(typ, 4), extents[3:] if extents else "1"))
        m = LET.match(line)
        if m and not in_loop:
            lets.append(m.groups())
        if s.endswith("{"):
            kind = "for" if s.startswith(("for (", "for<")) else "if" if s.startswith("if (") else "block"
            stack.append(kind)
            counts.append(0)
            if kind == "if":
                branches.append([])
    return (-1 if in_loop_launch else counts[0]), allocs, lets


BASE = re.compile(r"^(\w+)\.(min|extent|stride)\.(\d+)$")


def ledger_function(fn_name, stmt_path):
    """C++ for `int64_t fn(const ArgLookup &)`, or None where the sizes cannot be translated."""
    kernels, allocs, lets = read_ledger(stmt_path)
    try:
        needed, body_sizes = set(), []
        for name, nbytes, extents in allocs:
            body_sizes.append(f"int64_t({nbytes}) * {translate(extents, needed)}")
        # Walk the lets backwards, keeping only those the sizes depend on.
        code, defined = [], set()
        for name, text in reversed(lets):
            if name in needed and name not in defined and not BASE.match(name):
                names = set()
                code.append(f"    const int64_t {cxx_name(name)} = {translate(text, names)};")
                defined.add(name)
                needed |= names
        base = []
        for name in sorted(needed - defined):
            m = BASE.match(name)
            if not m:
                raise Unsupported(f"unbound {name}")
            base.append(f'    const int64_t {cxx_name(name)} = x.{m.group(2)}("{m.group(1)}", {m.group(3)});')
        total = " + ".join(body_sizes) if body_sizes else "int64_t(0)"
        fn = "\n".join([f"int64_t {fn_name}([[maybe_unused]] const ArgLookup &x) {{"] + base + list(reversed(code)) +
                       [f"    return {total};", "}"])
        return kernels, len(allocs), fn
    except Unsupported as e:
        print(f"gen_registry: {stmt_path}: intermediate bytes not derivable ({e})", file=sys.stderr)
        return kernels, len(allocs), None


# --- registers, spills and shared memory of each CUDA kernel, from ptxas ----------------------
PTXAS_ENTRY = re.compile(r"Compiling entry function '([^']+)'")
PTXAS_SPILL = re.compile(r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads")
PTXAS_USED = re.compile(r"Used (\d+) registers(?:.*?(\d+) bytes smem)?")
CUDA_RUN = re.compile(r'halide_cuda_run\(cuda\[0\], "([^"]+)", (.*)$')
MAX_REGISTERS = 128  # the runtime's HL_CUDA_JIT_MAX_REGISTERS (fuselab/device.cpp)


def split_args(text):
    """The top-level comma-separated arguments of a call's text (which may run past its end)."""
    args, depth, cur = [], 0, ""
    for ch in text:
        if ch in "([":
            depth += 1
        elif ch in ")]":
            if depth == 0:
                args.append(cur.strip())
                return args
            depth -= 1
        if ch == "," and depth == 0:
            args.append(cur.strip())
            cur = ""
        else:
            cur += ch
    args.append(cur.strip())
    return args


def constant(text):
    """The value of an integer expression made of literals only, else -1."""
    if re.fullmatch(r"[\d\s+*()-]+", text):
        return int(eval(text, {"__builtins__": {}}))  # noqa: S307 (digits and operators only)
    return -1


def launches(stmt_path):
    """{kernel name: (threads per block or -1, dynamic shared bytes or -1)} from the statement."""
    out = {}
    for line in pipeline_body(stmt_path):
        m = CUDA_RUN.search(line)
        if not m:
            continue
        args = split_args(m.group(2))
        if len(args) < 7:
            continue
        dims = [constant(a) for a in args[3:6]]
        threads = dims[0] * dims[1] * dims[2] if min(dims) > 0 else -1
        out[m.group(1)] = (threads, constant(args[6]))
    return out


def ptxas_report(ptxas, ptx_path, cache):
    """ptxas -v's report on a PTX file (cached by its hash in cache["old"/"new"]), or None."""
    data = open(ptx_path, "rb").read()
    key = hashlib.sha1(data + f"{ptxas} {MAX_REGISTERS}".encode()).hexdigest()
    if key in cache.get("old", {}):
        cache["new"][key] = cache["old"][key]
    if key not in cache["new"]:
        p = subprocess.run([ptxas, "-arch=sm_90", "-v", f"-maxrregcount={MAX_REGISTERS}", "-o", os.devnull,
                            ptx_path], capture_output=True, text=True)
        if p.returncode != 0:
            print(f"gen_registry: ptxas failed on {ptx_path}: {p.stderr[:500]}", file=sys.stderr)
            return None
        cache["new"][key] = p.stderr
    return cache["new"][key]


def kernel_resources(ptxas, ptx_path, stmt_path, cache):
    """[(name, registers, spill stores, spill loads, shared bytes, threads)], or None."""
    if not ptxas or not ptx_path or not os.path.exists(ptx_path):
        return None
    report = ptxas_report(ptxas, ptx_path, cache)
    if report is None:
        return None
    dynamic = launches(stmt_path)
    kernels, cur = [], None
    for line in report.splitlines():
        m = PTXAS_ENTRY.search(line)
        if m:
            cur = {"name": m.group(1), "registers": -1, "spill_stores": 0, "spill_loads": 0, "smem": 0}
            kernels.append(cur)
            continue
        if cur is None:
            continue
        m = PTXAS_SPILL.search(line)
        if m:
            cur["spill_stores"], cur["spill_loads"] = int(m.group(2)), int(m.group(3))
        m = PTXAS_USED.search(line)
        if m:
            cur["registers"] = int(m.group(1))
            cur["smem"] = int(m.group(2) or 0)
    out = []
    for k in kernels:
        threads, dyn = dynamic.get(k["name"], (-1, -1))
        shared = k["smem"] + dyn if dyn >= 0 else -1  # -1: sized at launch (bench --cupti shows it)
        out.append((k["name"], k["registers"], k["spill_stores"], k["spill_loads"], shared, threads))
    return out


DTYPE_BYTES = {"float32": 4, "bfloat16": 2, "float16": 2}


def row_limit_elements(tag, dtype, lib):
    """A strategy's `row_limit` tag ("40960 bytes" or "1024 elements") as elements of its storage
    type; 0 where there is no tag."""
    if not tag.strip():
        return 0
    m = re.fullmatch(r"\s*(\d+)\s+(bytes|elements)\s*", tag)
    if not m:
        sys.exit(f"gen_registry: {lib}: row_limit '{tag}': expected 'N bytes' or 'N elements'")
    n = int(m.group(1))
    return n if m.group(2) == "elements" else n // DTYPE_BYTES[dtype]


def cstr(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--manifest", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--ptxas", default="", help="ptxas, for the CUDA kernels' registers and spills")
    args = ap.parse_args()
    rows = [l.split("|", 10) for l in open(args.manifest).read().splitlines() if l.strip()]

    cache_path = args.out + ".ptxas-cache.json"
    # Reports by PTX hash: "old" as read, "new" those this run used (written back, so it stays small).
    cache = {"old": json.load(open(cache_path)) if os.path.exists(cache_path) else {}, "new": {}}
    decls, funcs, entries = [], [], []
    for pipeline, schedule, target, dtype, kind, lib, stmt, ptx, plugin, row_limit, summary in rows:
        decls.append(f'extern "C" int {lib}_argv(void **args);')
        decls.append(f'extern "C" const struct halide_filter_metadata_t *{lib}_metadata();')
        kernels, count, bytes_fn = -1, -1, "nullptr"
        if stmt:
            kernels, count, fn = ledger_function(f"ledger_{lib}", stmt)
            if target != "cuda":
                kernels = 0
            if fn:
                funcs.append(fn)
                bytes_fn = f"&ledger_{lib}"
        res, nres = "nullptr", 0
        found = kernel_resources(args.ptxas, ptx, stmt, cache) if target == "cuda" else None
        if found:
            rows_c = ", ".join(f"{{{cstr(n)}, {r}, {ss}, {sl}, {sh}, {th}}}" for n, r, ss, sl, sh, th in found)
            funcs.append(f"const KernelResources resources_{lib}[] = {{{rows_c}}};\n")
            res, nres = f"resources_{lib}", len(found)
        entries.append(f"    {{{cstr(pipeline)}, {cstr(schedule)}, {cstr(target)}, {cstr(dtype)}, {cstr(kind)}, "
                       f"{cstr(summary)}, {cstr(plugin)}, {kernels}, {count}, {bytes_fn}, {res}, {nres}, "
                       f"&{lib}_argv, &{lib}_metadata, {row_limit_elements(row_limit, dtype, lib)}}},")

    out = [
        "// Generated by cmake/gen_registry.py from the build's manifest, lowered statements and",
        "// ptxas reports. Do not edit: re-run the build.",
        "#include <cstdint>",
        '#include "fuselab/ledger.h"',
        '#include "fuselab/registry.h"',
        "",
        *decls,
        "",
        "namespace fuselab {",
        "namespace {",
        "using detail::ArgLookup;",
        "using detail::fdiv;",
        "using detail::fmod;",
        "using detail::imax;",
        "using detail::imin;",
        "using detail::isel;",
        "",
        *[f + "\n" for f in funcs],
        "const Variant list[] = {",
        *entries,
        "};",
        "",
        "// Registered when this library is linked (whole: fuselab_registry() in CMake).",
        "const bool registered = (register_variants(list, sizeof(list) / sizeof(list[0])), true);",
        "",
        "}  // namespace",
        "}  // namespace fuselab",
        "",
    ]
    with open(cache_path, "w") as f:
        json.dump(cache["new"], f)
    text = "\n".join(out)
    if not os.path.exists(args.out) or open(args.out).read() != text:
        with open(args.out, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
