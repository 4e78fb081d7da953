#!/usr/bin/env python3
"""Writes fuzz/corpus/: small valid .npy files (ranks 1 to 4, versions 1.0 to 3.0, header
spellings numpy reads) and PNGs (every colour type and bit depth, palette and tRNS, interlaced),
and broken ones of each. The committed corpus is this script's output; fuzz/run.sh fuzzes a
copy of it.

    python3 fuzz/make_corpus.py [DIR]
"""
import os
import struct
import sys
import zlib

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests"))
from filemaker import SIGNATURE, chunk, f32, ihdr, npy, npy_header, png  # noqa: E402


def samples(w, h, ch, top):
    return [[(x * 37 + y * 11 + c * 71) % (top + 1) for x in range(w) for c in range(ch)]
            for y in range(h)]


def corpus():
    files = {}
    vals = lambda n: f32([(i % 7) / 7.0 - 0.5 for i in range(n)])  # noqa: E731
    # .npy, valid
    files["npy_r1_v1.npy"] = npy(npy_header("(5,)"), vals(5))
    files["npy_r2_v2.npy"] = npy(npy_header("(3, 4)"), vals(12), version=(2, 0))
    files["npy_r3_v3.npy"] = npy(npy_header("(2, 3, 2)"), vals(12), version=(3, 0))
    files["npy_r4_v1.npy"] = npy(npy_header("(1, 2, 2, 3)"), vals(12))
    # float16 and bfloat16 bits (the storage types' files), NaN and inf among them
    halves = struct.pack("<8H", 0x0000, 0x3c00, 0xbc00, 0x7c00, 0x7e00, 0x0001, 0x7bff, 0x8000)
    files["npy_f2.npy"] = npy(npy_header("(2, 4)", descr="'<f2'"), halves)
    files["npy_u2_bf16.npy"] = npy(npy_header("(8,)", descr="'<u2'"), halves)
    files["npy_unpadded.npy"] = npy("{'shape':(2,2),'fortran_order':False,'descr':'<f4'}",
                                    vals(4), pad=False)
    files["npy_dquotes.npy"] = npy('{"descr": "<f4", "fortran_order": False, "shape": (3,)}',
                                   vals(3))
    # .npy, broken
    files["npy_negative.npy"] = npy(npy_header("(2, -3)"), vals(6))
    files["npy_zero.npy"] = npy(npy_header("(0,)"))
    files["npy_huge.npy"] = npy(npy_header("(65536, 65536)"), vals(4))
    files["npy_truncated.npy"] = npy(npy_header("(16,)"), vals(9))
    files["npy_trailing.npy"] = npy(npy_header("(4,)"), vals(6))
    files["npy_f8.npy"] = npy(npy_header("(4,)", "'<f8'"), vals(8))
    files["npy_big_endian.npy"] = npy(npy_header("(4,)", "'>f4'"), vals(4))
    files["npy_fortran.npy"] = npy(npy_header("(2, 2)", fortran="True"), vals(4))
    files["npy_dup_key.npy"] = npy(npy_header("(4,)")[:-1] + "'shape': (4,), }", vals(4))
    files["npy_missing_key.npy"] = npy("{'descr': '<f4', 'shape': (4,), }", vals(4))
    files["npy_bad_version.npy"] = npy(npy_header("(4,)"), vals(4), version=(4, 0))
    files["npy_long_header.npy"] = b"\x93NUMPY\x02\x00\xff\xff\x00\x00{"
    # PNG, valid: every colour type and depth
    for colour, depths in [(0, [1, 2, 4, 8, 16]), (4, [8, 16]), (2, [8, 16]), (6, [8, 16])]:
        ch = {0: 1, 2: 3, 4: 2, 6: 4}[colour]
        for d in depths:
            files["png_c%d_d%d.png" % (colour, d)] = png(samples(7, 5, ch, (1 << d) - 1), d, colour)
    pal = [(i * 50 % 256, 200 - i * 20, i * 9) for i in range(8)]
    for d in [1, 2, 4, 8]:
        n = min(8, 1 << d)
        files["png_palette_d%d.png" % d] = png(samples(6, 4, 1, n - 1), d, 3, palette=pal[:n])
    files["png_palette_trns.png"] = png(samples(6, 4, 1, 7), 8, 3, palette=pal, trns=b"\0\x80\xff")
    files["png_gray_trns.png"] = png(samples(6, 4, 1, 255), 8, 0, trns=struct.pack(">H", 37))
    files["png_rgb_trns.png"] = png(samples(6, 4, 3, 255), 8, 2, trns=struct.pack(">HHH", 0, 11, 71))
    files["png_interlaced_gray.png"] = png(samples(9, 9, 1, 255), 8, 0, interlace=1)
    files["png_interlaced_rgba16.png"] = png(samples(9, 7, 4, 65535), 16, 6, interlace=1)
    files["png_chunks.png"] = png(samples(5, 4, 1, 255), 8, 0, filter_type=1,
                                  before_idat=[chunk(b"tEXt", b"k\0v"), chunk(b"gAMA", b"\0\0\xb1\x8f")],
                                  after_idat=[chunk(b"zTXt", b"k\0\0" + zlib.compress(b"text"))])
    # PNG, broken
    good = png(samples(7, 5, 1, 255), 8, 0)
    files["png_truncated.png"] = good[:len(good) - 20]
    files["png_bad_crc.png"] = good[:29] + b"\0\0\0\0" + good[33:]
    files["png_depth3.png"] = SIGNATURE + ihdr(7, 5, 3, 0) + good[33:]
    files["png_huge.png"] = SIGNATURE + ihdr(1000000, 1000000, 8, 0) + good[33:]
    files["png_bad_index.png"] = png([[0, 1, 7, 2]] * 3, 8, 3, palette=pal[:4])
    files["png_bad_zlib.png"] = png(samples(7, 5, 1, 255), 8, 0, idat=b"\x78\x9c\xff\xff\xff\xff")
    files["png_no_idat.png"] = SIGNATURE + ihdr(7, 5, 8, 0) + chunk(b"IEND", b"")
    return files


if __name__ == "__main__":
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus")
    os.makedirs(out, exist_ok=True)
    for name, data in sorted(corpus().items()):
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)
    print("%d files in %s" % (len(corpus()), out))
