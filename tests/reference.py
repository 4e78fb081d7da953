"""Independent float64 references for every fuselab pipeline, written from shared/WORKLOADS.md.

Arrays are numpy C order, so a Halide buffer (x, y, c) is a numpy array of shape (c, y, x);
conv weights are PyTorch's (K, C, 3, 3). Sizes follow the runtime's formats (`fuselab list
--sizes`): N for the 1-D pipelines, (W, H) of the *output* for the 2-D stencils (their input
carries the halo), (W, H, C, K) of the *input* image for the convs.

    import numpy as np, reference
    p = reference.PIPELINES["conv_relu_pool"]
    size = reference.parse_size(p, "31x17x5x17")        # or the tuple (31, 17, 5, 17)
    inputs = p.inputs(np.random.default_rng(1), size)   # {"input": ..., "weights": ..., "bias": ...}
    ref = p.reference(inputs)                           # {"out": float64 array}
    p.output_shapes(size)                               # {"out": (17, 8, 15)}
    ok, msg = reference.check(p, out, ref["out"], size, "out")  # every element, and the norm
    special = p.special_inputs(np.random.default_rng(1), 1021)  # add_relu & co.: +-inf, 1e30

reference.check is the suite's comparison: every element within |o - r| <= atol + rtol * |r|
(Pipeline.bounds, per pipeline and output, some growing with the size) and the norm of
WORKLOADS.md (reference.error <= Pipeline.tolerance) beside it. Where the reference itself is
NaN or infinite (special inputs), the output must be the same: NaN for NaN, the same infinity.

Argument names live in ARG_NAMES below (one place to change them).

The row pipelines (softmax, rmsnorm_residual, layernorm; ROW_PIPELINES) come in storage types
(DTYPES: float32, bfloat16, float16). Their size is "NxM" (N the row length, Halide's order);
their arrays are numpy [M][N] rows and [N] vectors of the storage type (bfloat16 as uint16
holding its bits, or ml_dtypes.bfloat16), and everything about them takes the type:

    p = reference.PIPELINES["rmsnorm_residual"]
    inputs = p.inputs(rng, (1000, 3), "bfloat16")       # uint16 bits, already rounded
    ref = p.reference(inputs)                           # float64 from those values; h as rounded
    ok, msg = reference.check(p, out, ref["out"], (1000, 3), "out")   # dtype from out's
    ok, msg = reference.check_h(h, inputs["x"], inputs["residual"])   # bit for bit
"""
import math
from dataclasses import dataclass, field
from typing import Callable, Dict, Optional, Tuple

import numpy as np

__all__ = ["PIPELINES", "Pipeline", "RowPipeline", "ARG_NAMES", "error", "passes", "check",
           "check_h", "parse_size", "format_size", "SPECIAL_PIPELINES", "ROW_PIPELINES", "DTYPES",
           "to_storage", "widen", "storage_dtype", "round_sum"]

# pipeline -> (input names, output names), in the generator's argument order.
ARG_NAMES = {
    "add_relu": (("a", "b"), ("out",)),
    "pointwise_chain": (("x",), ("out",)),
    "branches": (("x",), ("out1", "out2")),
    "branches_indep": (("x", "y"), ("out1", "out2")),
    "conv_relu_pool": (("input", "weights", "bias"), ("out",)),
    "blur3x3": (("in",), ("out",)),
    "stencil_chain_k2": (("in",), ("out",)),
    "stencil_chain_k4": (("in",), ("out",)),
    "stencil_chain_k8": (("in",), ("out",)),
    "two_convs": (("input", "weights1", "bias1", "weights2", "bias2"), ("out1", "out2")),
    "two_convs_indep": (("input1", "input2", "weights1", "bias1", "weights2", "bias2"),
                        ("out1", "out2")),
    "softmax": (("x",), ("out",)),
    "rmsnorm_residual": (("x", "residual", "w"), ("out", "h")),
    "layernorm": (("x", "w", "b"), ("out",)),
}

TOLERANCE = 1e-5
CONV_TOLERANCE = 1e-4


def error(out, ref):
    """||out - ref|| / max(||ref||, sqrt(n)) over the n elements, in float64; +inf where `out`
    holds a NaN or an infinity (or `ref` does). Shapes must agree."""
    out = np.asarray(out)
    ref = np.asarray(ref, dtype=np.float64)
    if out.shape != ref.shape:
        raise ValueError(f"shape {out.shape} differs from the reference's {ref.shape}")
    o = out.astype(np.float64)
    if not (np.isfinite(o).all() and np.isfinite(ref).all()):
        return float("inf")
    n = ref.size
    if n == 0:
        return 0.0
    return float(np.linalg.norm(o - ref) / max(np.linalg.norm(ref), np.sqrt(n)))


def passes(out, ref, tolerance):
    e = error(out, ref)
    return np.isfinite(e) and e <= tolerance


# ---- per-element bounds --------------------------------------------------------------------

FLT_MIN = 2.0 ** -126  # the smallest normal float32: below it CUDA (ftz) flushes results to zero
F32_EPS = 2.0 ** -23   # float32's ulp at 1: twice the relative error of one correct rounding
REFERENCE_CHUNK = 1 << 20  # elements of a 1-D pipeline's reference computed at a time
CHECK_CHUNK = 1 << 17  # elements compared at a time: temporaries in cache (5x faster than 2^22)


def check(pipeline, out, ref, size, output=None, dtype=None):
    """(ok, message): `out` (any float array) against the float64 reference `ref` of
    `pipeline` (a name or a Pipeline) at `size`, for the output named `output` (None: the
    loosest bound of the pipeline's outputs). A row pipeline's bounds and norm tolerance are its
    storage type's: `dtype`, else the type `out` holds (storage_dtype: a uint16 array is bfloat16
    bits, widened to compare). ok when every element passes and the norm does:

    - an element passes when both are finite and |o - r| <= atol + rtol * |r| (float64;
      Pipeline.bounds), or both are the same infinity, or both are NaN (the reference is NaN or
      infinite only where special inputs make the math so);
    - the norm: reference.error over the elements whose reference is finite <= p.tolerance
      (WORKLOADS.md: 1e-5, 1e-4 for the convs).

    The message names the worst element (index, value, reference, |o - r| and its bound) and
    how many elements fail; on success it gives the worst element's share of its bound and the
    norm error."""
    p = PIPELINES[pipeline] if isinstance(pipeline, str) else pipeline
    out = np.asarray(out)
    tolerance = p.tolerance
    if isinstance(p, RowPipeline):
        dtype = dtype or storage_dtype(out)
        if dtype is None:
            return False, (f"{p.name} output '{output}' has dtype {out.dtype}, expected one of "
                           f"{', '.join(DTYPES)}")
        atol, rtol = p.bounds(size, output, dtype)
        tolerance = p.tolerance_of(dtype)
        what = f"{p.name} ({dtype}) output '{output}'" if output else f"{p.name} ({dtype}) output"
        if storage_dtype(out) != dtype:
            return False, f"{what} has dtype {out.dtype}, expected {dtype}"
        out = widen(out, np.float32)
    else:
        atol, rtol = p.bounds(size, output)
        what = f"{p.name} output '{output}'" if output else f"{p.name} output"
    ref = np.asarray(ref, dtype=np.float64)
    if out.shape != ref.shape:
        return False, f"{what} has shape {out.shape}, expected {ref.shape}"
    if out.dtype.kind != "f":
        return False, f"{what} has dtype {out.dtype}, expected a float type"
    o_flat, r_flat = out.reshape(-1), ref.reshape(-1)
    n = r_flat.size
    bad = 0                 # elements that fail
    nan_out = 0             # NaN outputs where the reference is not NaN (poison: not written)
    first_nonfinite = None  # flat index of the first failure that involves a NaN or an infinity
    worst = (-1.0, None)    # (|o - r| / bound, flat index) over the finite pairs
    sq_diff = sq_ref = 0.0
    n_finite = 0
    with np.errstate(all="ignore"):
        for start in range(0, n, CHECK_CHUNK):
            o = o_flat[start:start + CHECK_CHUNK].astype(np.float64)
            r = r_flat[start:start + CHECK_CHUNK]
            d = np.abs(o - r)  # NaN where either is NaN or both are the same infinity
            bound = rtol * np.abs(r) + atol  # inf where the reference is: never a pass by bound
            fail = ~(d <= bound) | (bound == np.inf)
            if fail.any():  # the slow path: NaN and infinities, element by element
                idx = np.flatnonzero(fail)
                oo, rr = o[idx], r[idx]
                same = (np.isnan(oo) & np.isnan(rr)) | (np.isinf(oo) & (oo == rr))
                real = idx[~same]
                bad += len(real)
                if len(real):
                    nan_out += int(np.count_nonzero(np.isnan(o[real]) & ~np.isnan(r[real])))
                    nonfinite = real[~(np.isfinite(o[real]) & np.isfinite(r[real]))]
                    if first_nonfinite is None and len(nonfinite):
                        first_nonfinite = start + int(nonfinite[0])
                both = np.isfinite(o) & np.isfinite(r)
                d = np.where(both, d, 0.0)
                fr = np.isfinite(r)
                rf = np.where(fr, r, 0.0)
                n_finite += int(np.count_nonzero(fr))
            else:  # every element finite and within its bound
                both = None
                rf = r
                n_finite += r.size
            ratio = d / bound if atol > 0 else np.where(bound > 0, d / np.where(bound > 0, bound, 1.0),
                                                        np.where(d > 0, np.inf, 0.0))
            if both is not None:
                ratio = np.where(both, ratio, -1.0)
            if ratio.size:
                i = int(np.argmax(ratio))
                if ratio[i] > worst[0]:
                    worst = (float(ratio[i]), start + i)
            # The norm over the elements whose reference is finite (and the output too: where it
            # is not, the element check has failed already).
            sq_diff += float(np.dot(d, d))
            sq_ref += float(np.dot(rf, rf))
    norm = (np.sqrt(sq_diff) / max(np.sqrt(sq_ref), np.sqrt(n_finite))) if n_finite else 0.0
    norm_ok = bool(norm <= tolerance)

    def at(flat):
        idx = np.unravel_index(flat, ref.shape) if ref.ndim > 1 else (flat,)
        o, r = float(o_flat[flat]), float(r_flat[flat])
        b = atol + rtol * abs(r) if np.isfinite(r) else float("nan")
        d = abs(o - r) if np.isfinite(o) and np.isfinite(r) else float("nan")
        where = "index " + ", ".join(str(int(v)) for v in idx)
        if ref.ndim > 1:
            where += f" (flat {flat})"
        return f"{where}: got {o!r}, reference {r!r}, |o - r| {d:.3g}, bound {b:.3g}"

    bounds = f"|o - r| <= {atol:.3g} + {rtol:.3g} * |r|"
    if bad:
        flat = first_nonfinite if first_nonfinite is not None else worst[1]
        msg = (f"{what}: {bad} of {n} elements outside {bounds}"
               + (f" ({nan_out} NaN where the reference is not: unwritten or poisoned)"
                  if nan_out else "")
               + f"; {'first non-finite mismatch' if first_nonfinite is not None else 'worst'} "
               f"at {at(flat)}; norm error {norm:.3g} (tolerance {tolerance:g})")
        return False, msg
    if not norm_ok:
        return False, (f"{what}: norm error {norm:.3g} > {tolerance:g} although every element "
                       f"is within {bounds}; worst at {at(worst[1])}")
    share = f"worst element at {worst[0]:.2f} of its bound" if worst[1] is not None else \
        "no finite element"
    return True, f"{what}: ok, {share}, norm error {norm:.3g}"


def uniform(rng, shape):
    """Fresh random float32 in [-1, 1), made in float32 in place (one allocation: 2^28 elements
    are 1 GiB, not 3)."""
    x = rng.random(shape, dtype=np.float32)
    x *= 2.0
    x -= 1.0
    return x


def _f64(a):
    return np.asarray(a, dtype=np.float64)


def _sigmoid(v):
    """1 / (1 + exp(-v)) without overflow: exp of -|v| only, so +-1e30 gives 1 and 0 exactly."""
    v = np.asarray(v, dtype=np.float64)
    e = np.exp(-np.abs(v))  # in (0, 1]: never overflows, underflows quietly to 0
    return np.where(v >= 0, 1.0 / (1.0 + e), e / (1.0 + e))


# ---- the math of WORKLOADS.md, on float64 arrays ----

def _add_relu(a, b):
    return np.maximum(0.0, a + b)


def _pointwise_chain(x):
    s1 = 1.5 * x
    s2 = s1 + 0.25
    s3 = np.maximum(0.0, s2)
    s4 = 0.75 * s3
    s5 = s4 - 0.1
    s6 = np.tanh(s5)
    s7 = 2.0 * s6
    s8 = s7 + 1.0
    s9 = _sigmoid(s8)
    return 3.0 * s9


def _branch1(x):
    return np.maximum(0.0, 2.0 * x + 1.0)


def _branch2(x):
    return 0.5 * _sigmoid(x)


def conv3x3(x, w, b):
    """PyTorch's conv2d(x, w, b, padding=1) for one image: x (C, H, W), w (K, C, 3, 3), b (K,)
    -> (K, H, W), zero outside the image. One (K, C) x (C, H*W) product per tap."""
    C, H, W = x.shape
    K = w.shape[0]
    if w.shape != (K, C, 3, 3) or b.shape != (K,):
        raise ValueError(f"weights {w.shape} / bias {b.shape} do not fit input {x.shape}")
    xp = np.zeros((C, H + 2, W + 2))
    xp[:, 1:H + 1, 1:W + 1] = x
    acc = np.empty((K, H * W))
    acc[:] = b[:, None]
    for dy in range(3):
        for dx in range(3):
            tap = np.ascontiguousarray(xp[:, dy:dy + H, dx:dx + W]).reshape(C, H * W)
            acc += w[:, :, dy, dx] @ tap
    return acc.reshape(K, H, W)


def max_pool2(r):
    """max_pool2d(r, 2) over the last two axes, dropping an odd last row / column."""
    K, H, W = r.shape
    h, w = H // 2, W // 2
    return r[:, :2 * h, :2 * w].reshape(K, h, 2, w, 2).max(axis=(2, 4))


def _conv_relu_pool(x, w, b):
    return max_pool2(np.maximum(0.0, conv3x3(x, w, b)))


def _blur3x3(src):
    H, W = src.shape[0] - 2, src.shape[1] - 2
    bx = (src[:, 0:W] + src[:, 1:W + 1] + src[:, 2:W + 2]) / 3.0  # (H + 2, W)
    return (bx[0:H] + bx[1:H + 1] + bx[2:H + 2]) / 3.0


def _stencil_chain(src, stages):
    s = src
    for _ in range(stages):
        s = (s[:-1, :-1] + s[:-1, 1:] + s[1:, :-1] + s[1:, 1:]) / 4.0
    return s


# ---- pipelines ----

@dataclass(frozen=True)
class Pipeline:
    name: str
    size_format: str           # "N", "WxH" (output extents) or "WxHxCxK" (input image, channels)
    input_names: Tuple[str, ...]
    outputs: Tuple[str, ...]
    tolerance: float           # the norm's (WORKLOADS.md)
    # size -> {name: numpy shape}, inputs and outputs
    _input_shapes: Callable = field(repr=False)
    _output_shapes: Callable = field(repr=False)
    # float64 input arrays in input_names order -> output arrays in outputs order
    _math: Callable = field(repr=False)
    # size tuple -> {output name: (atol, rtol)}: the per-element bound (BOUNDS below)
    _bounds: Callable = field(repr=False, default=None)
    # (rng, size tuple) -> {input name: float32 array} with large magnitudes and infinities mixed
    # in, where the math defines every output (SPECIAL below); None where there are none
    _special: Optional[Callable] = field(repr=False, default=None)

    def size(self, size) -> tuple:
        """A size as a tuple in size_format's order, from a tuple, an int (N) or text ('31x17')."""
        return _size(self, size)

    def input_shapes(self, size) -> Dict[str, tuple]:
        return dict(zip(self.input_names, self._input_shapes(_size(self, size))))

    def output_shapes(self, size) -> Dict[str, tuple]:
        return dict(zip(self.outputs, self._output_shapes(_size(self, size))))

    def inputs(self, rng, size) -> Dict[str, np.ndarray]:
        """Fresh random float32 inputs in [-1, 1] for `size`, by name."""
        return {n: uniform(rng, s) for n, s in self.input_shapes(size).items()}

    @property
    def has_special(self) -> bool:
        return self._special is not None

    def special_inputs(self, rng, size) -> Dict[str, np.ndarray]:
        """Inputs in [-1, 1] with large magnitudes (1e4 .. 1e30) and, for add_relu, infinities
        mixed in, where the math defines the answer (see SPECIAL)."""
        if self._special is None:
            raise ValueError(f"{self.name} has no special inputs")
        return self._special(rng, _size(self, size))

    def bounds(self, size, output=None) -> Tuple[float, float]:
        """(atol, rtol) of the per-element check |o - r| <= atol + rtol * |r| at `size`, for
        `output` (None: the loosest of the outputs)."""
        b = self._bounds(_size(self, size))
        if output is not None:
            if output not in b:
                raise KeyError(f"{self.name} has no output '{output}'")
            return b[output]
        return max(v[0] for v in b.values()), max(v[1] for v in b.values())

    def reference(self, inputs) -> Dict[str, np.ndarray]:
        """The float64 outputs, by name, for inputs given by name (any float dtype)."""
        missing = [n for n in self.input_names if n not in inputs]
        if missing:
            raise KeyError(f"{self.name}: missing input(s) {missing}")
        args = [np.asarray(inputs[n]) for n in self.input_names]
        with np.errstate(over="raise", invalid="raise"):  # the math must not overflow or NaN
            if self.size_format != "N" or args[0].size <= REFERENCE_CHUNK:
                outs = self._math(*(_f64(a) for a in args))
            else:  # elementwise: in chunks, so that only the outputs are full-size float64
                n = args[0].size
                outs = [np.empty(n) for _ in self.outputs]
                for start in range(0, n, REFERENCE_CHUNK):
                    part = self._math(*(_f64(a[start:start + REFERENCE_CHUNK]) for a in args))
                    for o, v in zip(outs, part):
                        o[start:start + REFERENCE_CHUNK] = v
        return dict(zip(self.outputs, outs))


def _size(p, size):
    if isinstance(size, str):
        return parse_size(p, size)
    if isinstance(size, (int, np.integer)):
        size = (int(size),)
    size = tuple(int(v) for v in size)
    if len(size) != len(p.size_format.split("x")):
        raise ValueError(f"{p.name}: size {size} does not match {p.size_format}")
    return size


def parse_size(p, text):
    """'1920x1080x3x16' -> (1920, 1080, 3, 16), as `fuselab list --sizes` prints sizes."""
    if isinstance(p, str):
        p = PIPELINES[p]
    return _size(p, tuple(int(v) for v in text.split("x")))


def format_size(size):
    if isinstance(size, (int, np.integer)):
        return str(size)
    return "x".join(str(v) for v in size)


# ---- per-element bounds, per pipeline: (atol, rtol) for |o - r| <= atol + rtol * |r| ----------
#
# Inputs are float32 in [-1, 1] (O(1)); one correct float32 rounding is off by at most 2^-24 |r|,
# so F32_EPS (2^-23) is two such roundings. Each entry says why its numbers are what they are.

def _exact_bound(_size):
    # One float32 rounding of an exact float64 result (a + b; 2x + 1 with 2x exact): half an ulp,
    # rtol F32_EPS doubles it; atol FLT_MIN for a result among the denormals that ftz flushes.
    return (FLT_MIN, F32_EPS)


def _transcendental_bound(_size):
    # tanh / exp and 1 / (1 + e) through approximate CUDA instructions (ex2.approx, div.approx:
    # about 2 ulp each) plus the float32 roundings around them; propagated through the chain's
    # 2x and 3x scalings that is at most ~1e-6 on outputs near 2..3 (~0.4e-6 relative), so
    # rtol 1e-6; atol FLT_MIN for sigmoid outputs that underflow (ftz) at large negative inputs.
    return (FLT_MIN, 1e-6)


def _stencil_bound(stages):
    """blur3x3 (stages None) or stencil_chain_kK (stages K)."""
    def bound(_size):
        # Averages of values in [-1, 1], so the bound is absolute (outputs can be ~0; rtol 0).
        # blur3x3: two passes, each summing 3 terms of magnitude <= 3 (~1.8e-7 of roundings)
        # and dividing by 3: ~2.5e-7 in the worst case, atol 1e-6 is 4x that.
        if stages is None:
            return (1e-6, 0.0)
        # stencil_chain: each stage sums 4 terms (<= 3e-7 of roundings) and divides by 4, ~7.5e-8
        # a stage, and an average does not grow the error it inherits: 2.5e-7 per stage (3x).
        return (2.5e-7 * stages, 0.0)
    return bound


def _conv_atol(C):
    # A 3x3xC conv sums 9*C products of magnitude <= 1 (and a bias) in float32, in an order each
    # schedule picks: each addition rounds at most half an ulp of the running sum, whose
    # magnitude grows like sqrt(9*C); 2e-6 per term is that with a wide margin (a bound in the
    # worst case would be (9C)^2 * 6e-8, far beyond what random signs give).
    return 2e-6 * 9 * C


def _conv_bound(outputs):
    def bound(size):
        C = size[2]
        # rtol F32_EPS: the final rounding of large outputs; atol grows with C (_conv_atol).
        return {o: (_conv_atol(C), F32_EPS) for o in outputs}
    return bound


def _per_output(outputs, fn):
    return lambda size: {o: fn(size) for o in outputs}


# ---- special inputs: large magnitudes and infinities, where the math defines the answer --------
#
# add_relu: a holds +inf, -inf, 1e30, -1e30 (inf + finite = inf, relu(-inf) = 0), b holds +-1e30
# where a is finite (1e30 - 1e30 = 0 exactly, 1e30 + 1e30 = 2e30); never inf + -inf, never NaN
# (max(0, NaN) differs between Halide's targets). pointwise_chain, branches: magnitudes 1e4 ..
# 1e30 of either sign, where tanh and sigmoid saturate to exactly -1 / 1 and 0 / 1 in float32.
# About a quarter of the elements are special, at random places, and at least 4 (all of them
# below 4 elements). Masks, not permutations: 2^28 elements take seconds, not minutes.

def _special_mask(rng, n, kinds=4, share=4):
    """uint8 per element: 0 .. kinds-1 for a special element of that kind (1 in `share` of the
    elements in all), 255 for an ordinary one; the first min(n, kinds) kinds appear for sure."""
    k = rng.integers(0, kinds * share, n, dtype=np.uint8)
    k[k >= kinds] = 255
    sure = rng.choice(n, min(n, kinds), replace=False)
    k[sure] = np.arange(len(sure)) % kinds
    return k


def _large(rng, k):
    """k float32 values of magnitude 10^4 .. 10^30, random signs, exponents uniform."""
    mag = 10.0 ** rng.uniform(4.0, 30.0, k)
    return (mag * rng.choice([-1.0, 1.0], k)).astype(np.float32)


def _special_add_relu(rng, size):
    n = size[0]
    a, b = uniform(rng, (n,)), uniform(rng, (n,))
    k = _special_mask(rng, n)
    values = np.array([np.inf, -np.inf, 1e30, -1e30], np.float32)
    special = k != 255
    a[special] = values[k[special]]
    # b = +-1e30 at half of the places where a is +-1e30 (cancelling or adding) and at 1 in 16
    # of the others (against an O(1) a); b stays O(1) wherever a is infinite.
    coin = rng.integers(0, 32, n, dtype=np.uint8)
    big_b = ((k >= 2) & (k <= 3) & (coin < 16)) | (~special & (coin < 2))
    b[big_b] = np.where(coin[big_b] % 2 == 0, np.float32(1e30), np.float32(-1e30))
    return {"a": a, "b": b}


def _special_large(names):
    def make(rng, size):
        n = size[0]
        out = {}
        for name in names:
            x = uniform(rng, (n,))
            special = _special_mask(rng, n, kinds=1) == 0
            x[special] = _large(rng, int(np.count_nonzero(special)))
            out[name] = x
        return out
    return make


# ---- the pipelines ---------------------------------------------------------------------------

def _one_d(name, math, bounds, special=None):
    ins, outs = ARG_NAMES[name]
    return Pipeline(name, "N", ins, outs, TOLERANCE,
                    lambda s: [(s[0],)] * len(ins), lambda s: [(s[0],)] * len(outs),
                    lambda *a: math(*a) if len(outs) > 1 else (math(*a),), bounds, special)


def _stencil(name, halo, math, stages):
    ins, outs = ARG_NAMES[name]
    return Pipeline(name, "WxH", ins, outs, TOLERANCE,
                    lambda s: [(s[1] + halo, s[0] + halo)], lambda s: [(s[1], s[0])],
                    lambda src: (math(src),), _per_output(outs, _stencil_bound(stages)))


def _two_convs_math(independent):
    def math(*a):
        if independent:
            x1, x2, w1, b1, w2, b2 = a
        else:
            x1, w1, b1, w2, b2 = a
            x2 = x1
        return (np.maximum(0.0, conv3x3(x1, w1, b1)), np.maximum(0.0, conv3x3(x2, w2, b2)))
    return math


def _two_convs(name, independent):
    ins, outs = ARG_NAMES[name]

    def input_shapes(s):
        W, H, C, K = s
        images = [(C, H, W)] * (2 if independent else 1)
        return images + [(K, C, 3, 3), (K,), (K, C, 3, 3), (K,)]

    return Pipeline(name, "WxHxCxK", ins, outs, CONV_TOLERANCE, input_shapes,
                    lambda s: [(s[3], s[1], s[0])] * 2, _two_convs_math(independent),
                    _conv_bound(outs))


def _branches_bound(size):
    # out1 = max(0, 2x + 1): one rounding (_exact_bound); out2 = 0.5 sigmoid(x): approximate
    # exp and division (_transcendental_bound).
    return {"out1": _exact_bound(size), "out2": _transcendental_bound(size)}


def _build():
    ps = [
        _one_d("add_relu", _add_relu, _per_output(("out",), _exact_bound), _special_add_relu),
        _one_d("pointwise_chain", _pointwise_chain, _per_output(("out",), _transcendental_bound),
               _special_large(("x",))),
        _one_d("branches", lambda x: (_branch1(x), _branch2(x)), _branches_bound,
               _special_large(("x",))),
        _one_d("branches_indep", lambda x, y: (_branch1(x), _branch2(y)), _branches_bound,
               _special_large(("x", "y"))),
        Pipeline("conv_relu_pool", "WxHxCxK", *ARG_NAMES["conv_relu_pool"], CONV_TOLERANCE,
                 lambda s: [(s[2], s[1], s[0]), (s[3], s[2], 3, 3), (s[3],)],
                 lambda s: [(s[3], s[1] // 2, s[0] // 2)],
                 lambda x, w, b: (_conv_relu_pool(x, w, b),), _conv_bound(("out",))),
        _stencil("blur3x3", 2, _blur3x3, None),
        _stencil("stencil_chain_k2", 2, lambda s: _stencil_chain(s, 2), 2),
        _stencil("stencil_chain_k4", 4, lambda s: _stencil_chain(s, 4), 4),
        _stencil("stencil_chain_k8", 8, lambda s: _stencil_chain(s, 8), 8),
        _two_convs("two_convs", False),
        _two_convs("two_convs_indep", True),
    ]
    return {p.name: p for p in ps}



# ---- row pipelines, in storage types ----------------------------------------------------------

DTYPES = ("float32", "bfloat16", "float16")
ROW_PIPELINES = ("softmax", "rmsnorm_residual", "layernorm")
# The norm's tolerance per storage type (WORKLOADS.md, "Row reductions").
ROW_TOLERANCE = {"float32": 1e-5, "bfloat16": 1e-2, "float16": 2e-3}
RMS_EPS = 1e-6
LN_EPS = 1e-5
U32 = 2.0 ** -24  # float32's unit roundoff: one correct rounding is off by at most U32 |r|
# Each storage type's unit roundoff (its one rounding of an output; float32's is in the math's
# bound) and the absolute error of a result at the bottom of its range: FLT_MIN for float32 and
# bfloat16 (the same exponent range; CUDA flushes float32 denormals), float16's subnormal step
# 2^-24 (a result below 2^-14, such as softmax's 1/N at N = 65537, rounds to a multiple of it).
ROUNDOFF = {"float32": 0.0, "bfloat16": 2.0 ** -8, "float16": 2.0 ** -11}
# Twice FLT_MIN for float32 and bfloat16: the CPU forms' exp returns 0 below e^-87 (1.6e-38), so a
# softmax result under that is 0 (seen: 1.28e-38 returned as 0 in tests/test_rows.py).
TINY = {"float32": 2.0 * FLT_MIN, "bfloat16": 2.0 * FLT_MIN, "float16": 2.0 ** -24}


def storage_dtype(a):
    """The storage type a numpy array holds: float32, float16, bfloat16 (uint16 bits or
    ml_dtypes.bfloat16); None for any other."""
    dt = np.asarray(a).dtype
    if dt == np.float32:
        return "float32"
    if dt == np.float16:
        return "float16"
    if dt == np.uint16 or (dt.kind == "V" and dt.itemsize == 2 and dt.name == "bfloat16"):
        return "bfloat16"
    return None


def to_storage(a, dtype):
    """float values (any float array) rounded to the storage type, once, to nearest even (from
    float32: what the kernels round): float32, float16, or bfloat16 as uint16 bits (NaN stays a
    quiet NaN of its sign, 0x7fc0)."""
    f = np.asarray(a, dtype=np.float32)
    if dtype == "float32":
        return f.copy() if f is a else f
    if dtype == "float16":
        with np.errstate(over="ignore"):
            return f.astype(np.float16)
    if dtype != "bfloat16":
        raise ValueError(f"unknown storage type {dtype!r}")
    u = f.view(np.uint32)
    rounded = ((u + np.uint32(0x7FFF) + ((u >> np.uint32(16)) & np.uint32(1))) >> np.uint32(16))
    nan = np.isnan(f)
    bits = rounded.astype(np.uint16)
    if nan.any():
        bits[nan] = ((u[nan] >> np.uint32(16)) & np.uint32(0x8000)).astype(np.uint16) | np.uint16(0x7FC0)
    return bits


def widen(a, to=np.float64):
    """A storage array's values as `to` (float64, or float32: exact for every storage type):
    uint16 arrays are bfloat16 bits."""
    a = np.asarray(a)
    if a.dtype == np.uint16:
        return (a.astype(np.uint32) << np.uint32(16)).view(np.float32).astype(to)
    return a.astype(to)


def round_sum(x, residual):
    """h = x + residual in the storage type of x (each widened to float32, added in float32,
    rounded once to the type): the bits torch's `x + residual` has in float32, bfloat16 and
    float16, and what rmsnorm_residual writes."""
    dtype = storage_dtype(x)
    with np.errstate(all="ignore"):
        s = widen(x, np.float32) + widen(residual, np.float32)
    out = to_storage(s, dtype)
    if isinstance(x, np.ndarray) and x.dtype.kind == "V":  # ml_dtypes.bfloat16: the same type back
        out = out.view(x.dtype)
    return out


def _bits(a):
    a = np.asarray(a)
    return a.view(np.uint32 if a.itemsize == 4 else np.uint16)


def check_h(h, x, residual):
    """(ok, message): rmsnorm_residual's h, bit for bit the rounded x + residual (round_sum);
    any NaN matches any NaN (payloads differ between implementations)."""
    h = np.asarray(h)
    want = round_sum(np.asarray(x), np.asarray(residual))
    if h.shape != want.shape or storage_dtype(h) != storage_dtype(want):
        return False, (f"h has shape {h.shape} and dtype {h.dtype}, expected {want.shape} "
                       f"{want.dtype}")
    hb, wb = _bits(h).reshape(-1), _bits(want).reshape(-1)
    hf, wf = widen(h, np.float32).reshape(-1), widen(want, np.float32).reshape(-1)
    bad = (hb != wb) & ~(np.isnan(hf) & np.isnan(wf))
    n = int(np.count_nonzero(bad))
    if n:
        i = int(np.flatnonzero(bad)[0])
        return False, (f"h differs from x + residual in {storage_dtype(h)} in {n} of {hb.size} "
                       f"elements; first at flat index {i}: bits {int(hb[i]):#x} ({float(hf[i])!r}), "
                       f"expected {int(wb[i]):#x} ({float(wf[i])!r})")
    return True, f"h: bit for bit x + residual in {storage_dtype(h)} ({hb.size} elements)"


def _math_rel(n):
    """The relative error bound of a row's float32 math, before any storage rounding: exp,
    sqrt and the divisions and products around them (16 U32, a few ulp each, exp's and rsqrt's
    approximations on CUDA among them), and a sum over the row of n terms, positive ones for
    softmax's sum and the squares' (the error every element of the row shares): its roundings,
    random in sign whatever the order of the reduction, grow like sqrt(n), bounded here at four
    standard deviations (4 U32 sqrt(n)); a worst case in n U32 would pass a broken reduction."""
    return U32 * (16.0 + 4.0 * math.sqrt(max(n, 1)))


def _row_bounds(name):
    def bounds(size, dtype):
        n = size[0]
        rel = _math_rel(n)
        u = ROUNDOFF[dtype]
        # The output's one rounding to the type (u |r|) on top of the float32 result's error
        # (rel |r|, grown by that rounding: (1 + u)); a result at the bottom of the type's range
        # rounds absolutely (TINY).
        rtol = u + rel * (1.0 + u)
        if name == "softmax":
            return {"out": (TINY[dtype], rtol)}
        if name == "rmsnorm_residual":
            # out: a product of h, w and 1 / rms, no cancellation: relative. h: exact, the
            # reference is h as rounded (check_h compares its bits).
            return {"out": (TINY[dtype], rtol), "h": (0.0, 0.0)}
        # layernorm: w (x - mean) rstd + b cancels where the two terms meet, so the float32
        # error is absolute in the terms' size: |w (x - mean) rstd| <= sqrt(3) for a row uniform
        # in [-1, 1] (and <= 1 where var ~ 0), |b| <= 1, hence 2 rel of atol; the rounding to the
        # type is relative to the result.
        return {"out": (2.0 * rel * (1.0 + u) + TINY[dtype], rtol)}
    return bounds


def _softmax(x):
    m = np.max(x, axis=-1, keepdims=True)
    e = np.exp(x - m)
    return e / np.sum(e, axis=-1, keepdims=True)


def _rmsnorm(h, w):
    ms = np.mean(h * h, axis=-1, keepdims=True)
    return w * h / np.sqrt(ms + RMS_EPS)


def _layernorm(x, w, b):
    mean = np.mean(x, axis=-1, keepdims=True)
    d = x - mean
    var = np.mean(d * d, axis=-1, keepdims=True)
    return w * d / np.sqrt(var + LN_EPS) + b


class RowPipeline:
    """A row pipeline: x of M rows of N ([M][N], Halide (N, M)), vectors of N, in a storage
    type. Pipeline's interface, with the storage type an argument where it matters."""

    size_format = "NxM"
    has_special = False  # NaN, infinities and large rows: tests/test_rows.py's cases, per op

    def __init__(self, name):
        self.name = name
        self.input_names, self.outputs = ARG_NAMES[name]
        self.dtypes = DTYPES
        self.tolerance = ROW_TOLERANCE["float32"]
        self._bounds = _row_bounds(name)

    def __repr__(self):
        return f"RowPipeline({self.name!r})"

    def size(self, size):
        return _size(self, size)

    def tolerance_of(self, dtype):
        return ROW_TOLERANCE[dtype]

    def input_shapes(self, size):
        n, m = _size(self, size)
        return {k: ((m, n) if k in ("x", "residual") else (n,)) for k in self.input_names}

    def output_shapes(self, size):
        n, m = _size(self, size)
        return {k: (m, n) for k in self.outputs}

    def inputs(self, rng, size, dtype="float32"):
        """Fresh random inputs in [-1, 1], rounded to the storage type, by name."""
        return {k: to_storage(uniform(rng, s), dtype) for k, s in self.input_shapes(size).items()}

    def bounds(self, size, output=None, dtype="float32"):
        """(atol, rtol) of |o - r| <= atol + rtol |r| at `size` in `dtype`, for `output` (None:
        the loosest of the outputs)."""
        b = self._bounds(_size(self, size), dtype)
        if output is not None:
            if output not in b:
                raise KeyError(f"{self.name} has no output '{output}'")
            return b[output]
        return max(v[0] for v in b.values()), max(v[1] for v in b.values())

    def reference(self, inputs):
        """The float64 outputs, by name, from the inputs' values (storage arrays: uint16 is
        bfloat16 bits) over the last axis, any leading shape. h is x + residual as rounded to
        the type (round_sum) and out is computed from it, as the spec defines. NaN and
        infinities follow IEEE arithmetic in float64, as torch's float32 does (a NaN makes its
        row NaN; softmax of a row with +inf is NaN)."""
        missing = [n for n in self.input_names if n not in inputs]
        if missing:
            raise KeyError(f"{self.name}: missing input(s) {missing}")
        a = {k: np.asarray(inputs[k]) for k in self.input_names}
        with np.errstate(all="ignore"):
            if self.name == "softmax":
                return {"out": _softmax(widen(a["x"]))}
            if self.name == "rmsnorm_residual":
                h = round_sum(a["x"], a["residual"])
                return {"out": _rmsnorm(widen(h), widen(a["w"])), "h": widen(h)}
            return {"out": _layernorm(widen(a["x"]), widen(a["w"]), widen(a["b"]))}


PIPELINES = _build()
PIPELINES.update({n: RowPipeline(n) for n in ROW_PIPELINES})
SPECIAL_PIPELINES = tuple(n for n, p in PIPELINES.items() if p.has_special)
