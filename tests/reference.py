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
    reference.error(out, ref["out"]) <= p.tolerance     # the suite's error measure

Argument names live in ARG_NAMES below (one place to change them).
"""
from dataclasses import dataclass, field
from typing import Callable, Dict, Tuple

import numpy as np

__all__ = ["PIPELINES", "Pipeline", "ARG_NAMES", "error", "passes", "parse_size", "format_size"]

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


def uniform(rng, shape):
    """Fresh random float32 in [-1, 1]."""
    return rng.uniform(-1.0, 1.0, shape).astype(np.float32)


def _f64(a):
    return np.asarray(a, dtype=np.float64)


def _sigmoid(v):
    return 1.0 / (1.0 + np.exp(-v))


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
    tolerance: float
    # size -> {name: numpy shape}, inputs and outputs
    _input_shapes: Callable = field(repr=False)
    _output_shapes: Callable = field(repr=False)
    # float64 input arrays in input_names order -> output arrays in outputs order
    _math: Callable = field(repr=False)

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

    def reference(self, inputs) -> Dict[str, np.ndarray]:
        """The float64 outputs, by name, for inputs given by name (any float dtype)."""
        missing = [n for n in self.input_names if n not in inputs]
        if missing:
            raise KeyError(f"{self.name}: missing input(s) {missing}")
        outs = self._math(*(_f64(inputs[n]) for n in self.input_names))
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


def _one_d(name, math):
    ins, outs = ARG_NAMES[name]
    return Pipeline(name, "N", ins, outs, TOLERANCE,
                    lambda s: [(s[0],)] * len(ins), lambda s: [(s[0],)] * len(outs),
                    lambda *a: math(*a) if len(outs) > 1 else (math(*a),))


def _stencil(name, halo, math):
    ins, outs = ARG_NAMES[name]
    return Pipeline(name, "WxH", ins, outs, TOLERANCE,
                    lambda s: [(s[1] + halo, s[0] + halo)], lambda s: [(s[1], s[0])],
                    lambda src: (math(src),))


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
                    lambda s: [(s[3], s[1], s[0])] * 2, _two_convs_math(independent))


def _build():
    ps = [
        _one_d("add_relu", _add_relu),
        _one_d("pointwise_chain", _pointwise_chain),
        _one_d("branches", lambda x: (_branch1(x), _branch2(x))),
        _one_d("branches_indep", lambda x, y: (_branch1(x), _branch2(y))),
        Pipeline("conv_relu_pool", "WxHxCxK", *ARG_NAMES["conv_relu_pool"], CONV_TOLERANCE,
                 lambda s: [(s[2], s[1], s[0]), (s[3], s[2], 3, 3), (s[3],)],
                 lambda s: [(s[3], s[1] // 2, s[0] // 2)],
                 lambda x, w, b: (_conv_relu_pool(x, w, b),)),
        _stencil("blur3x3", 2, _blur3x3),
        _stencil("stencil_chain_k2", 2, lambda s: _stencil_chain(s, 2)),
        _stencil("stencil_chain_k4", 4, lambda s: _stencil_chain(s, 4)),
        _stencil("stencil_chain_k8", 8, lambda s: _stencil_chain(s, 8)),
        _two_convs("two_convs", False),
        _two_convs("two_convs_indep", True),
    ]
    return {p.name: p for p in ps}


PIPELINES = _build()
