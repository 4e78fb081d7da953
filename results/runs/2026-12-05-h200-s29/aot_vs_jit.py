"""s29: the PTX of a JIT candidate that tools/row_search.cpp checked on the H200 against an AOT
variant's .device_code. row_search --dry --emit DIR writes each candidate's assembly (the PTX
inside, as a string); the build writes each CUDA variant's PTX. Compared up to kernel names,
comments, the order of the kernel's parameters (each renamed by its first use, declared types
compared) and register names (by first appearance). Where two parameters are loaded in the
other order, the lines that name them differ by that swap only: listed for reading.
  python3 aot_vs_jit.py EMITTED.s VARIANT.device_code"""
import re
import sys


def ptx_from_s(path):
    for m in re.finditer(r'\.(?:asciz|ascii)\s+"((?:[^"\\]|\\.)*)"', open(path).read()):
        if "NVPTX" in m.group(1)[:200]:
            return bytes(m.group(1), "latin1").decode("unicode_escape")
    raise SystemExit(f"no PTX in {path}")


def canon(ptx):
    lines = [re.sub(r"//.*", "", l).rstrip() for l in ptx.splitlines()]
    lines = [re.sub(r"_kernel_[A-Za-z0-9_$]+?(?=_param_|\b|\()", "K", l) for l in lines if l.strip()]
    decl, body = {}, []
    for l in lines:
        m = re.search(r"^\s*\.param (.+) K_param_(\d+),?$", l)
        if m:
            decl[int(m.group(2))] = m.group(1)
        else:
            body.append(l)
    pmap = {}
    for l in body:
        for p in re.findall(r"K_param_(\d+)", l):
            pmap.setdefault(int(p), len(pmap))
    types = sorted(t for i, t in decl.items())
    regs, out = {}, []
    for l in body:
        l = re.sub(r"K_param_(\d+)", lambda m: f"P{pmap[int(m.group(1))]}", l)
        l = re.sub(r"%(r|rd|rs|p|f|fd)(\d+)\b",
                   lambda m: regs.setdefault(m.group(0), f"%{m.group(1)}_{len(regs)}"), l)
        out.append(l)
    return types, out


ta, a = canon(ptx_from_s(sys.argv[1]))
tb, b = canon(open(sys.argv[2]).read())
diff = [(x.strip(), y.strip()) for x, y in zip(a, b) if x != y]
if ta == tb and len(a) == len(b) and not diff:
    print(f"identical ({len(a)} lines)")
else:
    print(f"parameter types {'equal' if ta == tb else 'DIFFER'}, {len(a)} vs {len(b)} lines, "
          f"{len(diff)} differ:")
    for x, y in diff:
        print(f"    {x}  |  {y}")
