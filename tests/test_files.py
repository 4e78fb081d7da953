#!/usr/bin/env python3
"""Hostile files through `fuselab run`, end to end. Each hostile case must exit with status 1,
name the variant and the file on stderr, create no file (no output, no .partial), and leave every
file it was given byte for byte as it was. Also the valid files that the readers must accept
(every PNG colour type and bit depth, interlaced, palette with transparency; .npy versions 1 to 3
and header spellings numpy reads), decoded to the right values, and the writers' output as numpy
and a PNG decoder read it. Prints how many hostile cases were tried.

    python3 tests/test_files.py PATH/TO/fuselab

Every run of fuselab goes through tests/harness.py: a sanitizer report (exit status 86 or a
report on stderr) fails the case even where status 1 was expected. Exit status 0, 1, or 77 when
every test skipped; the last line is `N passed, N failed, N skipped`.
"""
import hashlib
import os
import resource
import struct
import sys
import tempfile
import unittest
import warnings
import zlib

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from filemaker import (SIGNATURE, chunk, chunks, decode_png8, f32, ihdr, npy,  # noqa: E402
                       npy_header, png)
import harness  # noqa: E402

warnings.simplefilter("error")  # as in test_cli.py: a header numpy warns about is a failure

FUSELAB = None
HOSTILE_CASES = 0
FILES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "files")

ADD_RELU = ("add_relu", "fused")
BLUR = ("blur3x3", "inline")
CONV = ("conv_relu_pool", "unfused")
BRANCHES = ("branches", "horizontal")
OK64 = f32([0.25] * 64)
HDR64 = npy_header("(64,)")


def gray8(w=12, h=10):
    return [[(x * 17 + y * 29) % 256 for x in range(w)] for y in range(h)]


GOOD_PNG = png(gray8(), 8, 0)


def snapshot(root):
    """{relative path: sha256 or 'dir' or the link target} of everything under root."""
    out = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for n in dirnames + filenames:
            p = os.path.join(dirpath, n)
            rel = os.path.relpath(p, root)
            if os.path.islink(p):
                out[rel] = "-> " + os.readlink(p)
            elif os.path.isdir(p):
                out[rel] = "dir"
            elif os.path.isfile(p):
                with open(p, "rb") as f:
                    out[rel] = hashlib.sha256(f.read()).hexdigest()
            else:
                out[rel] = "special"
    return out


class Files(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()

    def path(self, name):
        return os.path.join(self.dir, name)

    def put(self, name, data):
        with open(self.path(name), "wb") as f:
            f.write(data)
        return self.path(name)

    def run_fuselab(self, pipeline, schedule, args, **kw):
        return harness.run_fuselab(FUSELAB, "run", pipeline, "--schedule", schedule, "--target",
                                   "cpu", *args, timeout=120, **kw)

    def refused(self, variant, args, fragments, names=(), outside=(), **kw):
        """One hostile case: `fuselab run` refuses with status 1, naming the variant, every one
        of `names` (file paths) and `fragments`; nothing under self.dir changes and nothing in
        `outside` (paths elsewhere) appears."""
        global HOSTILE_CASES
        HOSTILE_CASES += 1
        before = snapshot(self.dir)
        p = self.run_fuselab(*variant, args, **kw)
        label = "%s %s" % (" ".join(args), p.stderr)
        if os.environ.get("FUSELAB_TEST_SHOW"):  # to read every refusal
            print(p.stderr.strip())
        self.assertEqual(p.returncode, 1, label)
        self.assertIn("%s/%s/cpu" % variant, p.stderr)
        for s in list(names) + list(fragments):
            self.assertIn(s, p.stderr, label)
        self.assertNotIn("Traceback", p.stderr)
        self.assertEqual(snapshot(self.dir), before, "the failed run changed files: " + label)
        for o in outside:
            self.assertFalse(os.path.lexists(o) and o not in before, o)
            self.assertFalse([n for n in os.listdir(os.path.dirname(o) or ".") if
                              os.path.basename(o) + ".partial" in n], o)
        return p

    # --- .npy --------------------------------------------------------------------------------

    def npy_refused(self, data, *fragments):
        a = self.put("a.npy", data)
        b = self.put("b.npy", npy(HDR64, OK64))
        self.refused(ADD_RELU, ["a=" + a, "b=" + b, "-o", "out=" + self.path("out.npy")],
                     ["input 'a'", "cannot read"] + list(fragments), [a])

    def test_npy_extents(self):
        h = npy_header
        for shape, payload, fragment in [
                ("(-1,)", b"", "extent -1 is negative"),
                ("(8, -8)", OK64, "extent -8 is negative"),
                ("(-2147483648,)", b"", "is negative"),
                ("(0,)", b"", "extent 0"),
                ("(4, 0)", b"", "extent 0"),
                ("(0, 0, 0, 0)", b"", "extent 0"),
                ("(2147483648,)", b"", "extent 2147483648 is more than 2147483647"),
                ("(99999999999999999999999999,)", b"", "an extent beyond 2^63 is more than 2147483647"),
                ("(65536, 65536)", OK64, "has 4294967296 elements, more than 2147483647"),
                ("(2147483647, 2147483647)", OK64, "4611686014132420609 elements"),
                ("(2147483647, 2147483647, 2147483647, 2147483647)", OK64,
                 "21267647892944572736998860269687930881 elements"),
                ("(1, 1, 1, 1, 64)", OK64, "5 dimensions"),
                ("()", f32([1.0]), "0-dimensional"),
                ("(16777216,)", OK64, "truncated: shape (16777216,) needs 67108864 bytes"),
        ]:
            with self.subTest(shape=shape):
                self.npy_refused(npy(h(shape), payload), fragment)

    def test_npy_past_what_the_process_may_allocate(self):
        # A sparse file holding exactly the 2.4 GiB its header promises, read under ulimit -v 2 GiB.
        if os.environ.get("FUSELAB_SANITIZED"):
            self.skipTest("an ASan build reserves terabytes of shadow memory: it cannot start under "
                          "ulimit -v (the main build runs this case)")
        a = self.path("a.npy")
        with open(a, "wb") as f:
            f.write(npy(npy_header("(645000000,)")))
            f.truncate(f.tell() + 645000000 * 4)
        b = self.put("b.npy", npy(HDR64, OK64))

        def limit():
            resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))
        self.refused(ADD_RELU, ["a=" + a, "b=" + b, "-o", "out=" + self.path("out.npy")],
                     ["needs 2580000000 bytes", "ulimit -v"], [a], preexec_fn=limit)

    def test_npy_truncated_and_trailing(self):
        whole = npy(HDR64, OK64)
        for data, fragment in [
                (b"", "the file is empty"),
                (b"\x93NUMPY\x01", "truncated: the file ends inside the .npy preamble"),
                (b"\x93NUMPY\x01\x00\x76", "truncated: the file ends inside the .npy header length"),
                (b"\x93NUMPY\x02\x00\x76\x00\x00", "header length"),
                (whole[:40], "truncated: the file ends inside its 118-byte .npy header"),
                (whole[:128], "truncated: shape (64,) needs 256 bytes"),
                (whole[:128 + 100], "the file holds 100 bytes"),
                (whole[:-1], "the file holds 255 bytes"),
                (whole + b"\0\0\0\0", "4 bytes of unexpected data after the array"),
                (whole + whole, "384 bytes of unexpected data"),
        ]:
            with self.subTest(size=len(data), fragment=fragment):
                self.npy_refused(data, fragment)

    def test_npy_magic_and_version(self):
        for data, fragment in [
                (b"not a numpy file", "not a .npy file"),
                (b"\x93NUMPZ\x01\x00" + npy(HDR64, OK64)[8:], "not a .npy file"),
                (b"\x93NUM", "not a .npy file"),
                (GOOD_PNG, "(it looks like a PNG file)"),
                (npy(HDR64, OK64, version=(4, 0)), "unsupported .npy format version 4.0"),
                (npy(HDR64, OK64, version=(1, 1)), "version 1.1"),
                (npy(HDR64, OK64, version=(0, 0)), "version 0.0"),
                (npy(HDR64, OK64, version=(255, 255)), "version 255.255"),
                (b"\x93NUMPY\x02\x00\xff\xff\xff\xff{", "claims 4294967295 bytes, more than the 10000"),
                (npy(b"{" + b" " * 10001 + b"}", OK64, version=(2, 0), pad=False), "claims 10003 bytes"),
                (b"\x93NUMPY\x01\x00\x00\x00" + OK64, "the .npy header is empty"),
        ]:
            with self.subTest(fragment=fragment):
                self.npy_refused(data, fragment)

    def test_npy_dtypes_and_order(self):
        h = npy_header
        for header, payload, fragment in [
                (h("(64,)", "'<f8'"), OK64 * 2, "dtype '<f8' (float64) is not supported: expected float32"),
                (h("(64,)", "'<f2'"), OK64[:128], "(float16)"),
                (h("(64,)", "'<i4'"), OK64, "(int32)"),
                (h("(64,)", "'|u1'"), OK64[:64], "(uint8)"),
                (h("(64,)", "'|b1'"), OK64[:64], "(bool)"),
                (h("(32,)", "'<c8'"), OK64, "(complex64)"),
                (h("(8,)", "'|O'"), OK64[:64], "(Python objects)"),
                (h("(64,)", "'<U1'"), OK64, "dtype '<U1' is not supported"),
                (h("(64,)", "[('a', '<f4')]"), OK64, "structured dtypes are not supported"),
                (h("(64,)", "'>f4'"), OK64, "big-endian float32 ('>f4') is not supported"),
                (h("(64,)", "'=f4'"), OK64, "leaves the byte order to the reading machine"),
                (h("(64,)", "'f4'"), OK64, "leaves the byte order"),
                (h("(64,)", "'|f4'"), OK64, "leaves the byte order"),
                (h("(64,)", "'float32'"), OK64, "leaves the byte order"),
                (h("(64,)", "''"), OK64, "dtype '' is not supported"),
                (h("(8, 8)", fortran="True"), OK64, "Fortran order (fortran_order: True) is not supported"),
                (h("(64,)", fortran="0"), OK64, "'fortran_order' must be True or False"),
                (h("(64,)", fortran="'False'"), OK64, "must be True or False"),
                (h("(64,)", fortran="Falsey"), OK64, "must be True or False"),
        ]:
            with self.subTest(header=header):
                self.npy_refused(npy(header, payload), fragment)

    def test_npy_header_keys_and_syntax(self):
        for header, fragment in [
                ("{'fortran_order': False, 'shape': (64,), }", "the key 'descr' is missing"),
                ("{'descr': '<f4', 'shape': (64,), }", "the key 'fortran_order' is missing"),
                ("{'descr': '<f4', 'fortran_order': False, }", "the key 'shape' is missing"),
                ("{}", "is missing"),
                (HDR64[:-1] + "'shape': (64,), }", "the key 'shape' appears twice"),
                (HDR64[:-1] + "'descr': '<f4', }", "the key 'descr' appears twice"),
                (HDR64[:-1] + "'fortran_order': True, }", "the key 'fortran_order' appears twice"),
                (HDR64[:-1] + "'extra': 1, }", "unexpected key 'extra'"),
                ("hello", "expected '{' to open the header dict"),
                ("", "expected '{'"),
                (HDR64[:-2], "expected a quoted string as a key, but the header ends"),
                (HDR64 + " junk", "unexpected text after the closing '}'"),
                (HDR64 + "}", "unexpected text after the closing '}'"),
                ("{'descr': '<f4' 'fortran_order': False, 'shape': (64,)}", "expected ',' or '}'"),
                ("{'descr' '<f4', 'fortran_order': False, 'shape': (64,)}", "expected ':'"),
                ("{,}", "expected a quoted string as a key"),
                ("{descr: '<f4', 'fortran_order': False, 'shape': (64,)}", "expected a quoted string"),
                (npy_header("(64)"), "'(64)' is not a tuple"),
                (npy_header("[64]"), "the shape must be a tuple, not a list"),
                (npy_header("64"), "expected '(' to open the shape tuple"),
                (npy_header("(64.0,)"), "plain decimal integers"),
                (npy_header("(6_4,)"), "plain decimal integers"),
                (npy_header("(0x40,)"), "plain decimal integers"),
                (npy_header("(064,)"), "plain decimal integers"),
                (npy_header("(64L,)"), "plain decimal integers"),
                (npy_header("(+64,)"), "expected an integer"),
                (npy_header("(- 64,)"), "expected an integer"),
                (npy_header("(64,,)"), "expected an integer"),
                (npy_header("(,)"), "expected an integer"),
                (npy_header("(64 32)"), "expected ',' or ')'"),
                ("{'descr': '<f4', 'fortran_order': False, 'shape': (64,", "but the header ends"),
                (npy_header("(64,)", "'\\x3cf4'"), "escape sequences"),
                ("{'descr': '<f4", "a string runs past the end of its line"),
                (npy_header("(64,)", "'<f4\"").replace("'<f4\"", "'<f4\n'"), "past the end of its line"),
                (npy_header("(64,)", "3"), "expected a quoted string as the value of 'descr'"),
                (npy_header("(64,)", "'<f4'").replace("descr", "d\xe9scr"), "byte 0xe9 at offset 3 is not printable ASCII"),
                (HDR64.replace(" ", "\0", 1), "byte 0x00"),
                (HDR64.replace(" ", "\x0c", 1), "byte 0x0c"),
        ]:
            with self.subTest(header=header):
                self.npy_refused(npy(header, OK64), "malformed .npy header", fragment)

    # --- PNG -----------------------------------------------------------------------------------

    def png_refused(self, data, *fragments, name="in.png"):
        p = self.put(name, data)
        self.refused(BLUR, ["in=" + p, "-o", "out=" + self.path("out.npy")],
                     ["input 'in'", "cannot read"] + list(fragments), [p])

    def test_png_truncated(self):
        good = GOOD_PNG
        idat = [at for kind, _, at in chunks(good) if kind == b"IDAT"][0]
        for data, fragment in [
                (b"", "the file is empty"),
                (SIGNATURE[:5], "not a PNG file"),
                (SIGNATURE, "unexpected end of file (truncated)"),
                (good[:8 + 12], "truncated"),  # inside IHDR
                (good[:idat + 8 + 10], "truncated"),  # inside IDAT
                (good[:idat + 8], "truncated"),  # IDAT's length and type, no data
                (good[:-12], "truncated"),  # no IEND
                (good[:-4], "truncated"),  # IEND without its CRC
        ]:
            with self.subTest(size=len(data)):
                self.png_refused(data, fragment)

    def test_png_bad_crc_and_signature(self):
        rows = gray8()
        idat = zlib.compress(bytes(b for r in rows for b in [0] + r))
        text = chunk(b"tEXt", b"Comment\0hello", crc=0x12345678)
        for data, fragment in [
                (SIGNATURE + ihdr(12, 10, 8, 0)[:-4] + b"\0\0\0\0" + chunk(b"IDAT", idat) +
                 chunk(b"IEND", b""), "IHDR: CRC error"),
                (SIGNATURE + ihdr(12, 10, 8, 0) + chunk(b"IDAT", idat, crc=1) + chunk(b"IEND", b""),
                 "IDAT: CRC error"),
                (png(rows, 8, 0, before_idat=[text]), "tEXt: CRC error"),
                (png(rows, 8, 0)[:-4] + b"\0\0\0\0", "IEND: CRC error"),
                (b"\x89PNX" + GOOD_PNG[4:], "not a PNG file"),
                (b"\x89PNG\n\r\x1a\n" + GOOD_PNG[8:], "not a PNG file"),
                (npy(HDR64, OK64), "(it looks like a .npy file)"),
        ]:
            with self.subTest(fragment=fragment):
                self.png_refused(data, fragment)

    def test_png_invalid_header(self):
        idat = chunk(b"IDAT", zlib.compress(b"\0" * 64))
        for width, height, depth, colour, extra, fragment in [
                (12, 10, 3, 0, {}, "Invalid bit depth in IHDR"),
                (12, 10, 0, 0, {}, "Invalid bit depth"),
                (12, 10, 32, 0, {}, "Invalid bit depth"),
                (12, 10, 16, 3, {}, "Invalid color type/bit depth combination"),  # 16-bit palette
                (12, 10, 4, 2, {}, "Invalid color type/bit depth combination"),  # 4-bit RGB
                (12, 10, 8, 5, {}, "Invalid color type"),
                (12, 10, 8, 1, {}, "Invalid color type"),
                (12, 10, 8, 0, {"interlace": 2}, "Unknown interlace method"),
                (12, 10, 8, 0, {"compression": 1}, "Unknown compression method"),
                (12, 10, 8, 0, {"filter_method": 1}, "Unknown filter method"),
                (0, 10, 8, 0, {}, "Image width is zero"),
                (12, 0, 8, 0, {}, "Image height is zero"),
                (1 << 31, 1, 8, 0, {}, "PNG unsigned integer out of range"),
                ((1 << 24) + 1, 1, 8, 0, {}, "Image width exceeds user limit"),
                (1, (1 << 24) + 1, 8, 0, {}, "Image height exceeds user limit"),
                (1000000, 1000000, 8, 0, {}, "1000000x1000000 image (1 channel) has 1000000000000 values"),
                (1000000, 1000000, 1, 0, {}, "more than 2147483647"),
                (30000, 30000, 16, 6, {}, "(4 channels) has 3600000000 values"),
                (4000, 4000, 8, 0, {}, "truncated or corrupt: a 4000x4000 image needs"),
                (2000, 2000, 16, 6, {}, "cannot hold compressed"),
        ]:
            with self.subTest(width=width, height=height, depth=depth, colour=colour, **extra):
                data = SIGNATURE + ihdr(width, height, depth, colour, **extra) + idat + chunk(b"IEND", b"")
                self.png_refused(data, fragment)

    def test_png_corrupt_data(self):
        rows = gray8()
        raw = b"".join(bytes([0] + r) for r in rows)
        z = zlib.compress(raw)
        pal = [(i, 255 - i, i // 2) for i in range(4)]
        for data, fragment in [
                (png(rows, 8, 0, idat=b"\x78\x9c" + b"\xff" * 40), "IDAT"),  # not deflate
                (png(rows, 8, 0, idat=z[:-4] + b"\0\0\0\0"), "incorrect data check"),  # adler32
                (png(rows, 8, 0, idat=zlib.compress(raw[:50])), "Not enough image data"),
                (png(rows, 8, 0, idat=zlib.compress(raw + b"\0" * 200)), "Too much image data"),
                (png(rows, 8, 0, idat=zlib.compress(b"\x05" + raw[1:])), "bad adaptive filter value"),
                (png([[0, 1, 2, 3, 9, 1, 2, 3]] * 4, 8, 3, palette=pal),
                 "pixel (4, 0) has palette index 9, past the 4-entry palette"),
                (png([[0, 1, 2, 3] * 2] * 4, 2, 3, palette=pal[:3]),
                 "pixel (3, 0) has palette index 3, past the 3-entry palette"),
                (png([[0, 1, 2, 3] * 3] * 4, 8, 3), "Missing PLTE before IDAT"),
                (png([[0, 1, 2, 3] * 3] * 4, 8, 3, palette=[]), "Invalid palette"),
                (png([[0, 1, 2, 3] * 3] * 4, 8, 3, palette=[(1, 2, 3)] * 257), "PLTE: invalid"),
                (png([[0, 1, 2, 3] * 3] * 4, 8, 3, palette=pal, trns=b"\0" * 5), "tRNS"),
                (png(rows, 8, 0, palette=pal), "PLTE"),  # PLTE in a gray image
                (SIGNATURE + ihdr(12, 10, 8, 0) + chunk(b"IEND", b""), "IEND: out of place"),
                (SIGNATURE + chunk(b"IDAT", z) + chunk(b"IEND", b""), "IHDR"),
                (SIGNATURE + ihdr(12, 10, 8, 0) + ihdr(12, 10, 8, 0) + chunk(b"IDAT", z) +
                 chunk(b"IEND", b""), "IHDR"),
                (png(rows, 8, 0, before_idat=[chunk(b"CRIT", b"x")]), "CRIT: unhandled critical chunk"),
                (GOOD_PNG[:33] + struct.pack(">I", 0x7FFFFFFF) + b"IDAT" + GOOD_PNG[41:],
                 "IDAT"),
                (GOOD_PNG[:33] + struct.pack(">I", 0xFFFFFFFF) + b"IDAT" + GOOD_PNG[41:],
                 "PNG unsigned integer out of range"),
        ]:
            with self.subTest(fragment=fragment):
                self.png_refused(data, fragment)

    # --- paths ---------------------------------------------------------------------------------

    def good_inputs(self):
        return self.put("a.npy", npy(HDR64, OK64)), self.put("b.npy", npy(HDR64, OK64))

    def test_input_paths(self):
        a, b = self.good_inputs()
        out = "out=" + self.path("out.npy")
        os.mkdir(self.path("dir.npy"))
        self.refused(ADD_RELU, ["a=" + self.path("dir.npy"), "b=" + b, "-o", out],
                     ["it is a directory, not a regular file"], [self.path("dir.npy")])
        self.refused(ADD_RELU, ["a=" + self.path("missing.npy"), "b=" + b, "-o", out],
                     ["No such file or directory"], [self.path("missing.npy")])
        os.symlink(self.path("nowhere.npy"), self.path("dangling.npy"))
        self.refused(ADD_RELU, ["a=" + self.path("dangling.npy"), "b=" + b, "-o", out],
                     ["No such file or directory"], [self.path("dangling.npy")])
        os.mkfifo(self.path("fifo.npy"))
        self.refused(ADD_RELU, ["a=" + self.path("fifo.npy"), "b=" + b, "-o", out],
                     ["it is a FIFO (named pipe), not a regular file"], [self.path("fifo.npy")])
        os.symlink("/dev/null", self.path("null.npy"))
        self.refused(ADD_RELU, ["a=" + self.path("null.npy"), "b=" + b, "-o", out],
                     ["it is a character device, not a regular file"], [self.path("null.npy")])
        self.refused(ADD_RELU, ["a=" + a[:-4] + ".txt", "b=" + b, "-o", out],
                     ["No such file"], [a[:-4] + ".txt"])
        txt = self.put("a.txt", npy(HDR64, OK64))
        self.refused(ADD_RELU, ["a=" + txt, "b=" + b, "-o", out],
                     ["unsupported format '.txt' (use .npy or .png)"], [txt])
        self.refused(ADD_RELU, ["a=" + a, "a=" + b, "-o", out], ["input 'a' is given twice"])
        if os.geteuid() != 0:  # root reads any file
            os.chmod(a, 0)
            self.refused(ADD_RELU, ["a=" + a, "b=" + b, "-o", out], ["Permission denied"], [a])
            os.chmod(a, 0o644)

    def test_output_paths(self):
        a, b = self.good_inputs()
        ins = ["a=" + a, "b=" + b]
        o = self.path
        self.refused(ADD_RELU, ins + ["-o", "out=" + o("no_such_dir/out.npy")],
                     ["cannot write", "directory " + o("no_such_dir") + " does not exist"],
                     [o("no_such_dir/out.npy")])
        self.refused(ADD_RELU, ins + ["-o", "out=" + a + "/out.npy"],
                     ["cannot write", a + " is not a directory"], [a + "/out.npy"])
        self.refused(ADD_RELU, ins + ["-o", "out=" + a + "/sub/out.npy"],
                     ["cannot write", "directory " + a + "/sub: Not a directory"])
        os.mkdir(o("outdir.npy"))
        self.refused(ADD_RELU, ins + ["-o", "out=" + o("outdir.npy")],
                     ["it is a directory, not a regular file"], [o("outdir.npy")])
        self.refused(ADD_RELU, ins + ["-o", "out=" + o("outdir.npy") + "/"],
                     ["unsupported format"], [o("outdir.npy") + "/"])
        os.symlink("/dev/null", o("null.npy"))
        self.refused(ADD_RELU, ins + ["-o", "out=" + o("null.npy")],
                     ["it is a character device, not a regular file"], [o("null.npy")])
        os.mkfifo(o("fifo.npy"))
        self.refused(ADD_RELU, ins + ["-o", "out=" + o("fifo.npy")], ["it is a FIFO"],
                     [o("fifo.npy")])
        self.refused(ADD_RELU, ins + ["-o", "out=" + o("out.txt")],
                     ["unsupported format '.txt'"], [o("out.txt")])
        self.refused(ADD_RELU, ins + ["-o", "out=" + o("out.png")],
                     ["a PNG holds a 2-D (x, y) or 3-D (x, y, c) array, not rank 1"], [o("out.png")])
        self.refused(ADD_RELU, ins + ["-o", "out=" + o("x.npy"), "-o", "out=" + o("y.npy")],
                     ["output 'out' is given twice"])
        # An unwritable directory: its permission bits, or for root a file system that makes no
        # files (proc).
        if os.geteuid() != 0:
            os.mkdir(o("ro"))
            os.chmod(o("ro"), 0o555)
            self.refused(ADD_RELU, ins + ["-o", "out=" + o("ro/out.npy")],
                         ["directory " + o("ro") + " is not writable"], [o("ro/out.npy")])
        self.refused(ADD_RELU, ins + ["-o", "out=/proc/fuselab-test-out.npy"],
                     ["cannot write /proc/fuselab-test-out.npy"], outside=["/proc/fuselab-test-out.npy"])

    def test_output_over_an_input(self):
        a, b = self.good_inputs()
        ins = ["a=" + a, "b=" + b]
        same = "it is the same file as input '%s'"
        self.refused(ADD_RELU, ins + ["-o", "out=" + a], [same % "a", "which writing it would destroy"], [a])
        self.refused(ADD_RELU, ins + ["-o", "out=" + b], [same % "b"], [b])
        self.refused(ADD_RELU, ["a=a.npy", "b=b.npy", "-o", "out=./a.npy"], [same % "a"], ["./a.npy"],
                     cwd=self.dir)
        self.refused(ADD_RELU, ["a=a.npy", "b=b.npy", "-o", "out=" + a], [same % "a"], [a], cwd=self.dir)
        os.link(a, self.path("hard.npy"))
        self.refused(ADD_RELU, ins + ["-o", "out=" + self.path("hard.npy")], [same % "a"],
                     [self.path("hard.npy")])
        os.symlink(a, self.path("soft.npy"))
        self.refused(ADD_RELU, ins + ["-o", "out=" + self.path("soft.npy")], [same % "a"],
                     [self.path("soft.npy")])
        os.mkdir(self.path("sub"))
        self.refused(ADD_RELU, ins + ["-o", "out=" + self.path("sub/../a.npy")], [same % "a"],
                     [self.path("sub/../a.npy")])
        # A PNG input and a PNG output.
        img = self.put("in.png", GOOD_PNG)
        self.refused(BLUR, ["in=" + img, "-o", "out=" + img], [same % "in"], [img])

    def test_two_outputs_one_file(self):
        x = self.put("x.npy", npy(HDR64, OK64))
        same = "it is the same file as output 'out1'"
        self.refused(BRANCHES, ["x=" + x, "-o", "out1=" + self.path("o.npy"), "-o",
                                "out2=" + self.path("o.npy")], [same], [self.path("o.npy")])
        self.refused(BRANCHES, ["x=x.npy", "-o", "out1=o.npy", "-o", "out2=./o.npy"], [same],
                     ["./o.npy"], cwd=self.dir)
        self.put("o.npy", b"an existing output")
        os.symlink(self.path("o.npy"), self.path("link.npy"))
        self.refused(BRANCHES, ["x=" + x, "-o", "out1=" + self.path("o.npy"), "-o",
                                "out2=" + self.path("link.npy")], [same], [self.path("link.npy")])

    def test_failures_after_reading(self):
        # Inputs that read but cannot run or cannot be written: still nothing written, inputs kept.
        tiny = self.put("tiny.npy", npy(npy_header("(1, 1)"), f32([0.5])))
        self.refused(BLUR, ["in=" + tiny, "-o", "out=" + self.path("out.npy")],
                     ["gives output 'out' an empty extent in dimension 0", "(inputs: in=" + tiny], [tiny])
        nan = self.put("nan.npy", npy(npy_header("(5, 6)"), f32([float("nan")] * 30)))
        self.refused(BLUR, ["in=" + nan, "-o", "out=" + self.path("out.png")],
                     ["NaN at (0, 0): a PNG cannot hold it"], [self.path("out.png")])
        self.put("out.npy", b"the previous output, kept when a run fails")
        a, b = self.good_inputs()
        bad = self.put("bad.npy", npy(npy_header("(-3,)")))
        self.refused(ADD_RELU, ["a=" + bad, "b=" + b, "-o", "out=" + self.path("out.npy")],
                     ["extent -3"], [bad])
        wrong = self.put("wrong.npy", npy(npy_header("(63,)"), OK64[:252]))
        self.refused(ADD_RELU, ["a=" + a, "b=" + wrong, "-o", "out=" + self.path("out.npy")],
                     ["'b' has extent 63"])

    def test_regression_files(self):
        # tests/files/ (its README.md says what each is): inputs that once crashed or fooled a
        # reader, kept as they were.
        names = sorted(n for n in os.listdir(FILES) if n.endswith((".npy", ".png")))
        self.assertTrue(names)
        for n in names:
            with self.subTest(file=n), open(os.path.join(FILES, n), "rb") as f:
                if n.endswith(".png"):
                    self.png_refused(f.read())
                else:
                    self.npy_refused(f.read())

    # --- valid files -------------------------------------------------------------------------

    def run_ok(self, variant, args, **kw):
        p = self.run_fuselab(*variant, args, **kw)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual([n for n in os.listdir(self.dir) if ".partial" in n], [])
        return p

    def blur_of(self, img):
        d = img.astype(np.float64)
        h, w = d.shape[0] - 2, d.shape[1] - 2
        return sum(d[j:j + h, i:i + w] for j in range(3) for i in range(3)) / 9

    def decoded_by_blur(self, data):
        p = self.put("in.png", data)
        self.run_ok(BLUR, ["in=" + p, "-o", "out=" + self.path("out.npy")])
        return np.load(self.path("out.npy"))

    def decoded_by_conv(self, data, channels):
        """The image as (C, H, W), through conv_relu_pool with the identity as weights: each
        output channel is the 2x2 max of its input channel."""
        p = self.put("in.png", data)
        wts = np.zeros((channels, channels, 3, 3), np.float32)
        for c in range(channels):
            wts[c, c, 1, 1] = 1
        np.save(self.path("w.npy"), wts)
        np.save(self.path("bias.npy"), np.zeros(channels, np.float32))
        self.run_ok(CONV, ["input=" + p, "weights=" + self.path("w.npy"),
                           "bias=" + self.path("bias.npy"), "-o", "out=" + self.path("out.npy")])
        return np.load(self.path("out.npy"))

    @staticmethod
    def pooled(chw):
        c, h, w = chw.shape
        return chw[:, :h // 2 * 2, :w // 2 * 2].reshape(c, h // 2, 2, w // 2, 2).max(axis=(2, 4))

    def test_png_gray_depths(self):
        w, h = 13, 9
        for depth in [1, 2, 4, 8, 16]:
            for interlace in [0, 1]:
                with self.subTest(depth=depth, interlace=interlace):
                    top = (1 << depth) - 1
                    rows = [[(x * 7 + y * 3) % (top + 1) for x in range(w)] for y in range(h)]
                    out = self.decoded_by_blur(png(rows, depth, 0, interlace=interlace, filter_type=1))
                    vals = np.array(rows, np.float64) / top
                    self.assertEqual(out.shape, (h - 2, w - 2))
                    self.assertLessEqual(np.abs(out - self.blur_of(vals)).max(), 1e-6)

    def test_png_colour_types(self):
        w, h = 11, 8
        for colour, channels in [(4, 2), (2, 3), (6, 4)]:
            for depth in [8, 16]:
                for interlace in [0, 1]:
                    with self.subTest(colour=colour, depth=depth, interlace=interlace):
                        top = (1 << depth) - 1
                        rows = [[(x * 5 + y * 11 + c * 97) * 131 % (top + 1) for x in range(w)
                                 for c in range(channels)] for y in range(h)]
                        out = self.decoded_by_conv(png(rows, depth, colour, interlace=interlace),
                                                   channels)
                        hwc = np.array(rows, np.float64).reshape(h, w, channels) / top
                        ref = self.pooled(hwc.transpose(2, 0, 1))
                        self.assertEqual(out.shape, ref.shape)
                        self.assertLessEqual(np.abs(out - ref).max(), 1e-7)

    def test_png_palette_and_transparency(self):
        w, h = 10, 6
        pal = [(i * 40 % 256, 255 - i * 30, i * 17) for i in range(8)]
        idx = [[(x + 3 * y) % 8 for x in range(w)] for y in range(h)]
        rgb = np.array([[pal[i] for i in r] for r in idx], np.float64) / 255
        for depth in [1, 2, 4, 8]:
            n = min(8, 1 << depth)
            rows = [[i % n for i in r] for r in idx]
            ref = np.array([[pal[i] for i in r] for r in rows], np.float64) / 255
            with self.subTest(depth=depth):
                out = self.decoded_by_conv(png(rows, depth, 3, palette=pal[:n]), 3)
                self.assertLessEqual(np.abs(out - self.pooled(ref.transpose(2, 0, 1))).max(), 1e-7)
        alpha = [0, 50, 255, 128]  # tRNS gives the first 4 entries' alpha; the rest are opaque
        out = self.decoded_by_conv(png(idx, 8, 3, palette=pal, trns=bytes(alpha)), 4)
        a = np.array([[alpha[i] if i < 4 else 255 for i in r] for r in idx], np.float64) / 255
        ref = np.concatenate([rgb, a[:, :, None]], axis=2)
        self.assertLessEqual(np.abs(out - self.pooled(ref.transpose(2, 0, 1))).max(), 1e-7)
        # Gray and RGB with a tRNS colour: an alpha channel, 0 where the colour matches.
        gray = [[(x * y) % 4 * 60 for x in range(w)] for y in range(h)]
        out = self.decoded_by_conv(png(gray, 8, 0, trns=struct.pack(">H", 60)), 2)
        g = np.array(gray, np.float64)
        ref = np.stack([g / 255, np.where(g == 60, 0.0, 1.0)])
        self.assertLessEqual(np.abs(out - self.pooled(ref)).max(), 1e-7)
        rows = [[v for x in range(w) for v in ((x % 3) * 100, y * 10, 7)] for y in range(h)]
        out = self.decoded_by_conv(png(rows, 8, 2, trns=struct.pack(">HHH", 100, 20, 7)), 4)
        c = np.array(rows, np.float64).reshape(h, w, 3)
        match = (c == [100, 20, 7]).all(axis=2)
        ref = np.concatenate([c / 255, np.where(match, 0.0, 1.0)[:, :, None]], axis=2)
        self.assertLessEqual(np.abs(out - self.pooled(ref.transpose(2, 0, 1))).max(), 1e-7)

    def test_png_extra_chunks_and_tail(self):
        rows = gray8()
        ref = self.blur_of(np.array(rows, np.float64) / 255)
        extras = [chunk(b"tEXt", b"Comment\0hi"), chunk(b"gAMA", struct.pack(">I", 45455)),
                  chunk(b"prVt", b"private"), chunk(b"iCCP", b"bad\0\0garbage")]
        for data in [png(rows, 8, 0, before_idat=extras, after_idat=extras[:2]),
                     png(rows, 8, 0, tail=b"trailing bytes after IEND")]:
            self.assertLessEqual(np.abs(self.decoded_by_blur(data) - ref).max(), 1e-6)

    def test_png_compressed_as_far_as_deflate_goes(self):
        # 2000x2000 zeros at zlib's best ratio (about 1029:1): within the reader's bound on what
        # a file of this size can hold (1040:1), so accepted.
        raw = b"\0" * (2001 * 2000)
        data = SIGNATURE + ihdr(2000, 2000, 8, 0) + chunk(b"IDAT", zlib.compress(raw, 9)) + \
            chunk(b"IEND", b"")
        self.assertGreater(len(raw) / len(data), 1000)
        out = self.decoded_by_blur(data)
        self.assertEqual(out.shape, (1998, 1998))
        self.assertEqual(np.abs(out).max(), 0)

    def test_npy_versions_and_spellings(self):
        v = np.arange(64, dtype=np.float32) / 7
        payload = v.tobytes()
        for data in [npy(HDR64, payload, version=(2, 0)), npy(HDR64, payload, version=(3, 0)),
                     npy('{"descr": "<f4", "fortran_order": False, "shape": (64,)}', payload),
                     npy("{'shape':(64,),'fortran_order':False,'descr':'<f4'}", payload, pad=False),
                     npy("{ 'descr' : '<f4' ,\n 'fortran_order' : False ,\t'shape' : ( 64 , ) , }  \n",
                         payload, pad=False)]:
            with self.subTest(data=data[:80]):
                a = self.put("a.npy", data)
                b = self.put("b.npy", npy(HDR64, np.zeros(64, np.float32).tobytes()))
                self.run_ok(ADD_RELU, ["a=" + a, "b=" + b, "-o", "out=" + self.path("out.npy")])
                np.testing.assert_array_equal(np.load(self.path("out.npy")), v)

    def test_npy_output_is_numpy_s_own(self):
        # Header byte for byte as np.save writes it, at ranks 1, 2 and 3.
        x = np.random.default_rng(1).uniform(-1, 1, (3, 9, 12)).astype(np.float32)
        wts = np.zeros((5, 3, 3, 3), np.float32)
        np.save(self.path("x.npy"), x)
        np.save(self.path("w.npy"), wts)
        np.save(self.path("bias.npy"), np.arange(5, dtype=np.float32))
        np.save(self.path("v.npy"), np.arange(1001, dtype=np.float32))
        self.run_ok(CONV, ["input=" + self.path("x.npy"), "weights=" + self.path("w.npy"),
                           "bias=" + self.path("bias.npy"), "-o", "out=" + self.path("c.npy")])
        np.save(self.path("img.npy"), x[0])
        self.run_ok(BLUR, ["in=" + self.path("img.npy"), "-o", "out=" + self.path("b.npy")])
        self.run_ok(ADD_RELU, ["a=" + self.path("v.npy"), "b=" + self.path("v.npy"), "-o",
                               "out=" + self.path("r.npy")])
        for name in ["c.npy", "b.npy", "r.npy"]:
            with open(self.path(name), "rb") as f:
                data = f.read()
            out = np.load(self.path(name))
            np.save(self.path("ref.npy"), out)
            with open(self.path("ref.npy"), "rb") as f:
                self.assertEqual(data, f.read(), name)

    def test_png_output_channels(self):
        # conv_relu_pool's output as a PNG of 1 to 4 channels, decoded here.
        for k in [1, 2, 3, 4]:
            with self.subTest(channels=k):
                x = np.random.default_rng(k).uniform(-0.2, 1.2, (k, 10, 14)).astype(np.float32)
                np.save(self.path("x.npy"), x)
                wts = np.zeros((k, k, 3, 3), np.float32)
                for c in range(k):
                    wts[c, c, 1, 1] = 1
                np.save(self.path("w.npy"), wts)
                np.save(self.path("bias.npy"), np.zeros(k, np.float32))
                self.run_ok(CONV, ["input=" + self.path("x.npy"), "weights=" + self.path("w.npy"),
                                   "bias=" + self.path("bias.npy"), "-o", "out=" + self.path("o.png")])
                with open(self.path("o.png"), "rb") as f:
                    w, h, ch, rows = decode_png8(f.read())
                self.assertEqual((w, h, ch), (7, 5, k))
                got = np.array(rows, np.float64).reshape(h, w, ch).transpose(2, 0, 1)
                ref = np.floor(np.clip(self.pooled(np.maximum(x.astype(np.float64), 0)), 0, 1) * 255 + 0.5)
                self.assertLessEqual(np.abs(got - ref).max(), 1)

    def test_output_replaced_on_success(self):
        a, b = self.good_inputs()
        self.put("out.npy", b"old")
        self.run_ok(ADD_RELU, ["a=" + a, "b=" + b, "-o", "out=" + self.path("out.npy")])
        np.testing.assert_array_equal(np.load(self.path("out.npy")), np.full(64, 0.5, np.float32))


if __name__ == "__main__":
    FUSELAB = os.path.abspath(sys.argv.pop(1))
    sys.exit(harness.main(before_summary=lambda: print("%d hostile cases tried" % HOSTILE_CASES)))
