"""Bytes of .npy and PNG files, valid or broken on purpose, for tests/test_files.py and
fuzz/make_corpus.py. Standard library only: every byte is spelled out here, so that a broken file
is broken exactly where the test says.
"""
import struct
import zlib

# --- .npy ---------------------------------------------------------------------------------------


def npy_header(shape, descr="'<f4'", fortran="False"):
    """The header dict as numpy writes it; each argument is inserted as text."""
    return "{'descr': %s, 'fortran_order': %s, 'shape': %s, }" % (descr, fortran, shape)


def npy(header, payload=b"", version=(1, 0), header_len=None, pad=True):
    """A .npy file: magic, version, header length, the header (str or bytes), the payload.
    pad: spaces and a final newline up to a multiple of 64 bytes, as numpy writes them.
    header_len: the length field, if it should lie."""
    h = header.encode("latin1") if isinstance(header, str) else header
    pre = 10 if version[0] == 1 else 12
    if pad:
        h += b" " * (64 - (pre + len(h) + 1) % 64) + b"\n"
    n = len(h) if header_len is None else header_len
    field = struct.pack("<H", n) if version[0] == 1 else struct.pack("<I", n)
    return b"\x93NUMPY" + bytes(version) + field + h + payload


def f32(values):
    return struct.pack("<%df" % len(values), *values)


# --- PNG ----------------------------------------------------------------------------------------

SIGNATURE = b"\x89PNG\r\n\x1a\n"
CHANNELS = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}  # colour type -> samples a pixel
ADAM7 = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2),
         (0, 1, 1, 2)]


def chunk(kind, data, crc=None):
    """One chunk; crc: a wrong CRC to store instead of the right one."""
    right = zlib.crc32(kind + data) & 0xFFFFFFFF
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", right if crc is None else crc)


def ihdr(width, height, depth, colour, interlace=0, compression=0, filter_method=0):
    return chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, depth, colour, compression,
                                      filter_method, interlace))


def pack_row(samples, depth):
    """One row of samples (channels interleaved) as the PNG stores it, MSB first."""
    if depth == 16:
        return b"".join(struct.pack(">H", s) for s in samples)
    if depth == 8:
        return bytes(samples)
    out, acc, bits = bytearray(), 0, 0
    for s in samples:
        acc, bits = (acc << depth) | s, bits + depth
        if bits == 8:
            out.append(acc)
            acc, bits = 0, 0
    if bits:
        out.append(acc << (8 - bits))
    return bytes(out)


def filtered_rows(rows, width, depth, channels, filter_type):
    """rows: lists of width*channels samples. Filter 0 (none) or 1 (sub) on every row."""
    bpp = max(1, depth * channels // 8)
    out = bytearray()
    for row in rows:
        raw = pack_row(row, depth)
        if filter_type == 1:
            raw = bytes((raw[i] - (raw[i - bpp] if i >= bpp else 0)) & 0xFF for i in range(len(raw)))
        out += bytes([filter_type]) + raw
    return bytes(out)


def image_data(rows, width, height, depth, colour, interlace=0, filter_type=0):
    """The uncompressed IDAT stream of an image given as rows of samples."""
    ch = CHANNELS[colour]
    if not interlace:
        return filtered_rows(rows, width, depth, ch, filter_type)
    out = b""
    for x0, y0, dx, dy in ADAM7:
        sub = [[row[x * ch + c] for x in range(x0, width, dx) for c in range(ch)]
               for row in rows[y0::dy]]
        if sub and sub[0]:
            out += filtered_rows(sub, len(sub[0]) // ch, depth, ch, filter_type)
    return out


def png(rows, depth, colour, interlace=0, palette=None, trns=None, before_idat=(),
        after_idat=(), filter_type=0, idat=None, tail=b""):
    """A PNG of `rows` (lists of samples, channels interleaved). palette: list of (r, g, b);
    trns: the tRNS chunk's payload; before_idat/after_idat: extra chunks (bytes); idat: the
    compressed stream to store instead of the right one; tail: bytes after IEND."""
    height = len(rows)
    width = len(rows[0]) // CHANNELS[colour] if rows else 0
    out = SIGNATURE + ihdr(width, height, depth, colour, interlace)
    if palette is not None:
        out += chunk(b"PLTE", b"".join(bytes(c) for c in palette))
    if trns is not None:
        out += chunk(b"tRNS", trns)
    out += b"".join(before_idat)
    if idat is None:
        idat = zlib.compress(image_data(rows, width, height, depth, colour, interlace, filter_type))
    out += chunk(b"IDAT", idat)
    out += b"".join(after_idat)
    return out + chunk(b"IEND", b"") + tail


def chunks(data):
    """[(kind, payload, offset of the chunk)] of a PNG's bytes."""
    out, at = [], 8
    while at + 8 <= len(data):
        n = struct.unpack(">I", data[at:at + 4])[0]
        out.append((data[at + 4:at + 8], data[at + 8:at + 8 + n], at))
        at += 12 + n
    return out


def decode_png8(data):
    """(width, height, channels, rows of samples) of an 8-bit, non-interlaced PNG, as fuselab
    writes them: the five filter types undone."""
    parts = chunks(data)
    assert data[:8] == SIGNATURE and parts[0][0] == b"IHDR" and parts[-1][0] == b"IEND"
    w, h, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", parts[0][1])
    assert depth == 8 and interlace == 0, (depth, interlace)
    ch = CHANNELS[colour]
    raw = zlib.decompress(b"".join(p for k, p, _ in parts if k == b"IDAT"))
    stride, rows, prev = w * ch, [], bytearray(w * ch)
    for y in range(h):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - ch] if i >= ch else 0
            b, c = prev[i], prev[i - ch] if i >= ch else 0
            if f == 1:
                line[i] = (line[i] + a) & 0xFF
            elif f == 2:
                line[i] = (line[i] + b) & 0xFF
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 0xFF
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 0xFF
        rows.append(list(line))
        prev = line
    return w, h, ch, rows
