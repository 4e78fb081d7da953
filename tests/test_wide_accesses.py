#!/usr/bin/env python3
"""Every CUDA variant of a pipeline in a 16-bit storage type loads and stores 16 bytes at a time
somewhere in its PTX (issue 30): Halide 21's PTX backend cuts 8 x 16-bit vectors into 8-byte
pieces unless generators/support/fuselab/wide_accesses.h rewrites them as 32-bit words, and a
strategy that forgets the pass, or the rows' alignment specialization, falls back to 8-byte (or
element) accesses silently. Two more of that header's rewrites, each an instruction an element
that nothing else would notice losing (s19, results/rows_ncu.md): every bfloat16 CUDA variant
widens its values as 32-bit words (the high value by a mask, `and.b32 ..., -65536`), and every
softmax CUDA variant takes its max with PTX's max.f32 (float_max_num). And no 16-bit variant
stores a 16-bit value from a 64-bit register: the NVPTX backend of Halide 21.0.0's LLVM folds an
unguarded float16 rounding into a masked store that way and stores a float32's low 16 bits,
unrounded (generators/storage.h: half_guarded; s26). Reads the build's variant manifest and each
variant's PTX.

    python3 tests/test_wide_accesses.py BUILD_DIR [--selftest]
"""
import os
import re
import sys

# 16-byte global loads and stores as LLVM's NVPTX backend writes them.
LOAD16 = re.compile(r"\bld\.global(?:\.nc)?\.v(?:4\.[bfsu]32|2\.[bfsu]64)\b")
STORE16 = re.compile(r"\bst\.global\.v(?:4\.[bfsu]32|2\.[bfsu]64)\b")
# A bfloat16 pair's high value widened by a mask of its 32-bit word.
WORD_MASK = re.compile(r"\band\.b32\s+%r\d+,\s*%r\d+,\s*-65536;")
# PTX's float max (libdevice's fmaxf), where Halide 21 alone writes setp and selp.
FMAX = re.compile(r"\bmax(?:\.ftz)?\.f32\b")
# A 16-bit store of a 64-bit register (a float32 pair): the miscompiled float16 rounding.
STORE16_OF_64 = re.compile(
    r"\bst(?:\.global|\.shared)?(?:\.v[24])?\.[bu]16\s+\[[^\]]*\],\s*\{?\s*%rd\d+")


# Strategies whose outputs are stored element by element on every row by design: their threads
# take adjacent elements (rows_forms.h: Form::adjacent_out), for rows that are not whole aligned
# vectors, where they win; the choice takes them there alone (their measured records). They lack
# 16-byte stores (and adjacent_row, which stages nothing, 16-byte loads; adjacent_warp, whose
# every pass takes adjacent elements, any vector access, so any widening by words); every other
# check holds.
ELEMENT_OUTPUTS = {
    "adjacent_row": {"no 16-byte global load", "no 16-byte global store"},
    "adjacent_staged_2k": {"no 16-byte global store"},
    "adjacent_warp": {"no 16-byte global load", "no 16-byte global store",
                      "no bfloat16 widening as 32-bit words"},
}


def problems(ptx_text, dtype="float16", pipeline=""):
    """What the PTX lacks: [] when it has a 16-byte load and a 16-byte store, and for bfloat16 a
    widening by words, and for softmax a max.f32."""
    out = []
    if not LOAD16.search(ptx_text):
        out.append("no 16-byte global load")
    if not STORE16.search(ptx_text):
        out.append("no 16-byte global store")
    if dtype == "bfloat16" and not WORD_MASK.search(ptx_text):
        out.append("no bfloat16 widening as 32-bit words")
    if pipeline == "softmax" and not FMAX.search(ptx_text):
        out.append("no max.f32")
    if dtype in ("bfloat16", "float16") and STORE16_OF_64.search(ptx_text):
        out.append("a 16-bit store of a 64-bit register (an unrounded float32)")
    return out


def selftest():
    """The check fails PTX with 8-byte accesses only, and passes PTX with 16-byte ones."""
    narrow = "ld.global.nc.v4.b16 {%rs1, %rs2, %rs3, %rs4}, [%rd1];\nst.global.v4.b16 [%rd2], {%rs1};"
    wide = "ld.global.nc.v4.b32 {%r1, %r2, %r3, %r4}, [%rd1];\nst.global.v4.b32 [%rd2], {%r1};"
    assert problems(narrow) == ["no 16-byte global load", "no 16-byte global store"], problems(narrow)
    assert problems(wide) == [], problems(wide)
    assert problems("ld.global.nc.v2.b64 {%rd3, %rd4}, [%rd1];\nst.global.v2.b64 [%rd2], {%rd3, %rd4};") == []
    bf16 = wide + "\nshl.b32 %r5, %r1, 16;\nand.b32 %r6, %r1, -65536;"
    assert problems(bf16, "bfloat16") == [], problems(bf16, "bfloat16")
    assert problems(wide, "bfloat16") == ["no bfloat16 widening as 32-bit words"]
    assert problems(wide + "\nmax.ftz.f32 %r7, %r5, %r6;", "float16", "softmax") == []
    assert problems(wide + "\nsetp.gt.f32 %p1, %r5, %r6;", "float16", "softmax") == ["no max.f32"]
    unrounded = wide + "\nmov.b64 %rd682, {%r2431, %r2430};\nst.global.b16 [%rd684+4], %rd682;"
    assert problems(unrounded) == ["a 16-bit store of a 64-bit register (an unrounded float32)"]
    assert problems(wide + "\nst.global.b16 [%rd289+512], %rs278;") == []


def main():
    selftest()
    if "--selftest" in sys.argv:
        print("selftest passed")
        return 0
    build = sys.argv[1]
    manifest = os.path.join(build, "fuselab_kernels.manifest")
    checked, bad = 0, []
    for line in open(manifest):
        f = line.rstrip("\n").split("|")
        if len(f) < 8 or f[2] != "cuda" or not f[7]:
            continue
        if f[3] not in ("bfloat16", "float16") and f[0] != "softmax":
            continue
        checked += 1
        with open(f[7]) as ptx:
            text = ptx.read()
        # float32 softmax: only its max (its accesses are 16 bytes by Halide itself).
        found = problems(text, f[3], f[0])
        if f[3] not in ("bfloat16", "float16"):
            found = [p for p in found if p == "no max.f32"]
        found = [p for p in found if p not in ELEMENT_OUTPUTS.get(f[1], ())]
        bad.extend(f"{f[0]}/{f[1]}/cuda/{f[3]}: {p}" for p in found)
    if checked == 0:
        print(f"no 16-bit CUDA variant in {manifest}: nothing to check")
        return 77  # skipped (a build without CUDA variants)
    for b in bad:
        print(b)
    print(f"{checked} CUDA variants (16-bit, and softmax in every type), {len(bad)} problems")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
