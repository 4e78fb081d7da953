"""The row-reduction pipelines (issue 23) in numpy: names, sizes, storage types, float32 peers'
building blocks and float64 references. numpy only, so that peers/cpu_peers.py, peers/peers.py
(through peers/row_peers.py), the reports and tests/test_row_peers.py share one definition.

The math (shared/WORKLOADS.md, "Row reductions"; /tmp/rows_spec.md), per row of N elements,
float32 math in every storage type, each output rounded to the storage type once, at the end:
  softmax           out = exp(x - max x) / sum exp(x - max x)
  rmsnorm_residual  h = round_to_type(x + residual); out = w * h / sqrt(mean(h^2) + 1e-6)
  layernorm         out = w * (x - mean) / sqrt(var + 1e-5) + b   (var biased, two-pass)
A Halide buffer (N, M) is the numpy array (M, N): x and residual are (M, N), w and b (N,).
Sizes are "NxM", row length first. Storage types: float32 (<f4), float16 (<f2), bfloat16 (<u2
holding the bits, as fuselab's .npy files carry it; numpy has no bfloat16).
"""
import numpy as np

PIPELINES = ("softmax", "rmsnorm_residual", "layernorm")
DTYPES = ("float32", "bfloat16", "float16")
INPUTS = {"softmax": ("x",), "rmsnorm_residual": ("x", "residual", "w"), "layernorm": ("x", "w", "b")}
OUTPUTS = {"softmax": ("out",), "rmsnorm_residual": ("out", "h"), "layernorm": ("out",)}
ROW_ARGS = ("x", "residual", "out", "h")  # (M, N); every other argument is (N,)
EPS = {"rmsnorm_residual": 1e-6, "layernorm": 1e-5}
TOLERANCE = {"float32": 1e-5, "bfloat16": 1e-2, "float16": 2e-3}  # ||out - ref|| / ||ref||
ELEMENT_BYTES = {"float32": 4, "bfloat16": 2, "float16": 2}
STORAGE = {"float32": np.dtype("<f4"), "float16": np.dtype("<f2"), "bfloat16": np.dtype("<u2")}
GPU_ELEMENTS, GPU_N = 1 << 26, (256, 1024, 4096, 16384, 65536, 262144)
CPU_ELEMENTS, CPU_N = 1 << 22, (256, 4096, 65536)
BF16_NAN = 0x7FC0  # a quiet NaN, as torch rounds every NaN


def is_row(workload):
    return workload in PIPELINES


def size_string(n, m):
    return f"{n}x{m}"


def parse_size(size):
    """'NxM' -> (N, M), both positive."""
    try:
        n, m = (int(v) for v in str(size).lower().split("x"))
    except ValueError:
        raise ValueError(f"row size {size!r} should be NxM (row length x rows)") from None
    if n < 1 or m < 1:
        raise ValueError(f"row size {size!r}: N and M must be positive")
    return n, m


def default_sizes(device):
    """The suite's sizes: 2^26 elements on the GPU, 2^22 on the CPU, as 'NxM'."""
    elements, ns = (GPU_ELEMENTS, GPU_N) if device == "cuda" else (CPU_ELEMENTS, CPU_N)
    return [size_string(n, elements // n) for n in ns]


def shapes(workload, n, m):
    """numpy shapes of every argument, inputs then outputs."""
    return {a: ((m, n) if a in ROW_ARGS else (n,)) for a in INPUTS[workload] + OUTPUTS[workload]}


def min_bytes(workload, n, m, dtype):
    """Every input read once and every output written once, at the storage type's size."""
    return ELEMENT_BYTES[dtype] * sum(int(np.prod(s)) for s in shapes(workload, n, m).values())


def dtype_of(arr_dtype):
    """A numpy dtype -> its storage type name (float32, float16, bfloat16), or None."""
    d = np.dtype(arr_dtype)
    for name, s in STORAGE.items():
        if d == s:
            return name
    return None


# ---- storage <-> float32 ---------------------------------------------------------------------

def widen(a, dtype, out=None):
    """Storage array -> float32 (into `out` where given). bfloat16: the bits shifted up by 16."""
    if dtype == "float32":
        if out is None:
            return a
        np.copyto(out, a)
        return out
    if out is None:
        out = np.empty(a.shape, np.float32)
    if dtype == "float16":
        np.copyto(out, a, casting="same_kind")
    else:
        np.left_shift(a, np.uint32(16), out=out.view(np.uint32), dtype=np.uint32)
    return out


def narrow(f, dtype, out=None, scratch=None):
    """float32 -> storage, rounded to nearest even once (into `out` where given). bfloat16:
    bits + 0x7fff + ((bits >> 16) & 1), then >> 16; every NaN becomes the quiet NaN 0x7fc0 as
    torch makes it. `scratch`: a uint32 array of f's shape to reuse."""
    if dtype == "float32":
        if out is None:
            return f
        np.copyto(out, f)
        return out
    if out is None:
        out = np.empty(f.shape, STORAGE[dtype])
    if dtype == "float16":
        np.copyto(out, f, casting="same_kind")
        return out
    bits = f.view(np.uint32)
    t = np.empty(f.shape, np.uint32) if scratch is None else scratch
    np.right_shift(bits, np.uint32(16), out=t)
    np.bitwise_and(t, np.uint32(1), out=t)
    np.add(t, np.uint32(0x7FFF), out=t)
    np.add(t, bits, out=t)  # no overflow below NaN: the largest non-NaN pattern is -inf, 0xff800000
    np.right_shift(t, np.uint32(16), out=t)
    np.copyto(out, t, casting="unsafe")
    nan = np.isnan(f)
    if nan.any():
        out[nan] = BF16_NAN
    return out


def to_storage(f32, dtype):
    """A float32 array rounded to the storage type (a new array)."""
    return narrow(np.ascontiguousarray(f32, np.float32), dtype, out=np.empty(f32.shape, STORAGE[dtype]))


def as_float64(a, dtype):
    return widen(np.ascontiguousarray(a), dtype).astype(np.float64)


# ---- inputs and float64 references -----------------------------------------------------------

def make_inputs(workload, n, m, dtype, rng):
    """Storage arrays: x and residual uniform in [-1, 1], w = 1 + 0.1 randn, b = 0.1 randn, each
    drawn in float32, then rounded to the type."""
    out = {}
    for a in INPUTS[workload]:
        if a in ("x", "residual"):
            f = rng.uniform(-1.0, 1.0, (m, n)).astype(np.float32)
        elif a == "w":
            f = (1.0 + 0.1 * rng.standard_normal(n)).astype(np.float32)
        else:
            f = (0.1 * rng.standard_normal(n)).astype(np.float32)
        out[a] = to_storage(f, dtype)
    return out


def residual_sum(x, residual, dtype):
    """torch's x + residual in the type: the float32 sum, rounded to the type once."""
    return to_storage(widen(x, dtype) + widen(residual, dtype), dtype)


def reference(workload, inputs, dtype, chunk_rows=None):
    """float64 outputs from the (already rounded) inputs, {name: float64 array}; rmsnorm's h is
    the storage-type sum (what must match bit for bit), widened to float64."""
    x = inputs["x"]
    m, n = x.shape
    chunk = chunk_rows or max(1, (1 << 20) // max(n, 1))
    res = {name: np.empty((m, n), np.float64) for name in OUTPUTS[workload]}
    for r0 in range(0, m, chunk):
        sl = slice(r0, min(m, r0 + chunk))
        v = as_float64(x[sl], dtype)
        with np.errstate(invalid="ignore", over="ignore", divide="ignore"):
            if workload == "softmax":
                e = np.exp(v - v.max(axis=1, keepdims=True))
                res["out"][sl] = e / e.sum(axis=1, keepdims=True)
            elif workload == "rmsnorm_residual":
                h = residual_sum(x[sl], inputs["residual"][sl], dtype)
                h64 = as_float64(h, dtype)
                res["h"][sl] = h64
                w = as_float64(inputs["w"], dtype)
                res["out"][sl] = w * h64 / np.sqrt((h64 * h64).mean(axis=1, keepdims=True) + EPS[workload])
            else:
                mean = v.mean(axis=1, keepdims=True)
                d = v - mean
                var = (d * d).mean(axis=1, keepdims=True)
                w, b = as_float64(inputs["w"], dtype), as_float64(inputs["b"], dtype)
                res["out"][sl] = w * d / np.sqrt(var + EPS[workload]) + b
    return res


def rel_err(out, ref, dtype):
    """||out - ref|| / ||ref|| in float64 (out in storage); inf for NaN/inf or a shape mismatch."""
    o = as_float64(out, dtype)
    if o.shape != ref.shape:
        return float("inf")
    num, den = np.linalg.norm(o - ref), np.linalg.norm(ref)
    e = float(num / den) if den > 0 else (0.0 if num == 0 else float("inf"))
    return e if np.isfinite(e) else float("inf")


def h_mismatches(got, want, dtype):
    """Elements where h is not bit for bit torch's sum (any NaN matches any NaN); -1: a shape
    mismatch."""
    if got.shape != want.shape:
        return -1
    uint = np.uint32 if dtype == "float32" else np.uint16
    same = got.view(uint) == want.view(uint)
    same |= np.isnan(widen(got, dtype)) & np.isnan(widen(want, dtype))
    return int(same.size - np.count_nonzero(same))


def check(workload, dtype, outputs, inputs, ref=None):
    """(ok, worst relative error, message) of storage outputs against the float64 reference,
    the tolerance of the type, and h bit for bit against torch's x + residual."""
    ref = ref if ref is not None else reference(workload, inputs, dtype)
    worst, msgs = 0.0, []
    for name in OUTPUTS[workload]:
        got = outputs[name]
        if np.dtype(got.dtype) != STORAGE[dtype]:
            return False, float("inf"), f"{name} is {got.dtype}, expected {STORAGE[dtype]} ({dtype})"
        if name == "h":
            bad = h_mismatches(got, residual_sum(inputs["x"], inputs["residual"], dtype), dtype)
            if bad:
                msgs.append(f"h differs from x + residual in {dtype} at {bad} elements")
            continue
        e = rel_err(got, ref[name], dtype)
        worst = max(worst, e)
        if not e <= TOLERANCE[dtype]:
            msgs.append(f"{name}: relative L2 error {e:.3g} > {TOLERANCE[dtype]:g}")
    return not msgs, worst, "; ".join(msgs)
