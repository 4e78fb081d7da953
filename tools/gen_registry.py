#!/usr/bin/env python3
"""Writes the variant registry (variants.gen.cpp) from the build's manifest and each variant's
lowered statement (Halide's STMT output).

The ledger comes from the statement, never from a hand-typed number:
- kernels per call: the `halide_cuda_run` calls on one path through the pipeline's body (the
  larger branch of an if/else, e.g. a schedule's specializations; -1 if one sits in a host loop,
  where the count depends on the size);
- intermediates: the `allocate` nodes of the pipeline's body that are outside every loop and in
  global or heap memory (not Stack, Register, GPUShared or GPULocal): buffers that make a round
  trip through memory. Their size expressions are translated into C++ so that the runtime can
  evaluate them for the buffers of any call. Unlike the kernels, they are summed over every
  branch of an if/else (no schedule has an intermediate inside a specialization yet).
"""
import argparse
import os
import re
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


def cstr(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--manifest", required=True)
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    rows = [l.split("|") for l in open(args.manifest).read().splitlines() if l.strip()]

    decls, funcs, entries = [], [], []
    for pipeline, schedule, target, kind, lib, stmt, summary in rows:
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
        entries.append(f"        {{{cstr(pipeline)}, {cstr(schedule)}, {cstr(target)}, {cstr(kind)}, "
                       f"{cstr(summary)}, {kernels}, {count}, {bytes_fn}, &{lib}_argv, &{lib}_metadata}},")

    out = [
        "// Generated by tools/gen_registry.py from the build's manifest and lowered statements.",
        "// Do not edit: re-run the build.",
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
        "}  // namespace",
        "",
        "const std::vector<Variant> &detail::generated_variants() {",
        "    static const std::vector<Variant> list = {",
        *entries,
        "    };",
        "    return list;",
        "}",
        "",
        "}  // namespace fuselab",
        "",
    ]
    text = "\n".join(out)
    if not os.path.exists(args.out) or open(args.out).read() != text:
        with open(args.out, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
