"""The row reductions' PyTorch peers (issue 23), for peers/peers.py: inputs, float64 references,
torch eager, the functions torch.compile compiles, and Liger-Kernel's kernels.

torch tensors [M][N] (a Halide buffer (N, M)), in the storage type (float32, bfloat16, float16):
  softmax           torch.softmax(x, -1)
  rmsnorm_residual  h = x + residual; out = F.rms_norm(h, (N,), w, 1e-6), returns (out, h); eager
                    also times the written-out form (HF Llama's: h.float(), mean of squares,
                    rsqrt, .to(dtype) * w) and keeps the faster as torch_eager
  layernorm         F.layer_norm(x, (N,), w, b, 1e-5)
Liger-Kernel (a pure-Python wheel of Triton kernels, not installed on the GPU machine): the wheel
is found at $FUSELAB_LIGER_WHEEL, .carry/wheels/ or gpu/wheels/ (gpu/carry.sh puts it in .carry),
installed with `pip install --no-deps --no-index --target` into a temporary folder (unzipped
there where pip cannot) and put on sys.path. Its functional forms: liger_softmax(x),
liger_fused_add_rms_norm(x, residual, w, 1e-6) (casting_mode "llama", its default: the
normalized h rounded to the type, then x w), liger_layer_norm(x, w, b, 1e-5). Liger refuses rows
longer than 65536 (its one-block-per-row limit); that is a refusal record, not a crash.
"""
import glob
import os
import subprocess
import sys
import tempfile
import zipfile

import torch
import torch.nn.functional as F

import rowmath  # noqa: E402  (peers/rowmath.py: names, sizes, tolerances, numpy references)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TORCH_DTYPE = {"float32": torch.float32, "bfloat16": torch.bfloat16, "float16": torch.float16}
LIGER_VERSION = "0.8.5"
LIGER_MAX_N = 65536  # liger_kernel.ops.utils.calculate_settings: MAX_FUSED_SIZE


def make_inputs(workload, n, m, dtype, dev, gen):
    """The inputs in INPUTS order, in the type: x and residual uniform in [-1, 1], w = 1 + 0.1
    randn, b = 0.1 randn, each drawn in float32, then cast."""
    t = TORCH_DTYPE[dtype]
    out = []
    for a in rowmath.INPUTS[workload]:
        if a in ("x", "residual"):
            v = torch.empty(m, n, dtype=torch.float32, device=dev).uniform_(-1.0, 1.0, generator=gen)
        elif a == "w":
            v = 1.0 + 0.1 * torch.randn(n, dtype=torch.float32, device=dev, generator=gen)
        else:
            v = 0.1 * torch.randn(n, dtype=torch.float32, device=dev, generator=gen)
        out.append(v.to(t).contiguous())
    return tuple(out)


def reference(workload, inputs):
    """(float64 out, h in the type or None): the math in float64 from the rounded inputs; h is
    torch's x + residual in the type (every peer's h must equal it bit for bit)."""
    if workload == "softmax":
        return torch.softmax(inputs[0].double(), -1), None
    if workload == "rmsnorm_residual":
        x, r, w = inputs
        h = x + r
        h64 = h.double()
        return w.double() * h64 * torch.rsqrt(h64.square().mean(-1, keepdim=True) + rowmath.EPS[workload]), h
    x, w, b = inputs
    x64 = x.double()
    mean = x64.mean(-1, keepdim=True)
    d = x64 - mean
    var = d.square().mean(-1, keepdim=True)
    return w.double() * d * torch.rsqrt(var + rowmath.EPS[workload]) + b.double(), None


def check(workload, dtype, got, ref):
    """(relative L2 error of out, error text or None) against the reference and the type's
    tolerance; rmsnorm_residual's h bit for bit."""
    out64, h = ref
    got = got if isinstance(got, (tuple, list)) else (got,)
    out = got[0]
    if out.shape != out64.shape or out.dtype != TORCH_DTYPE[dtype]:
        return None, f"output out is {out.dtype} {tuple(out.shape)}, expected {dtype} {tuple(out64.shape)}"
    num = torch.linalg.vector_norm(out.double() - out64).item()
    den = torch.linalg.vector_norm(out64).item()
    err = num / den if den > 0 else (0.0 if num == 0 else float("inf"))
    if err != err:
        err = float("inf")
    problems = []
    if not err <= rowmath.TOLERANCE[dtype]:
        problems.append(f"output mismatch: relative L2 error {err:.3g} > {rowmath.TOLERANCE[dtype]:g}")
    if h is not None:
        if len(got) < 2 or got[1].shape != h.shape or got[1].dtype != h.dtype:
            problems.append("output mismatch: no h of the right shape and type")
        elif not torch.equal(got[1], h):
            bad = int((got[1] != h).sum().item())
            problems.append(f"output mismatch: h differs from x + residual in {dtype} at {bad} elements")
    return err, "; ".join(problems) or None


# ---------------------------------------------------------------- the functions timed
def softmax(x):
    return torch.softmax(x, -1)


def rmsnorm_residual(x, residual, w):
    h = x + residual
    return F.rms_norm(h, (h.shape[-1],), w, rowmath.EPS["rmsnorm_residual"]), h


def rmsnorm_residual_formula(x, residual, w):  # HF Llama's LlamaRMSNorm, after the residual add
    h = x + residual
    hf = h.float()
    hf = hf * torch.rsqrt(hf.pow(2).mean(-1, keepdim=True) + rowmath.EPS["rmsnorm_residual"])
    return w * hf.to(h.dtype), h


def layernorm(x, w, b):
    return F.layer_norm(x, (x.shape[-1],), w, b, rowmath.EPS["layernorm"])


EAGER_FORMS = {"softmax": [("torch.softmax", softmax)],
               "rmsnorm_residual": [("F.rms_norm", rmsnorm_residual), ("formula", rmsnorm_residual_formula)],
               "layernorm": [("F.layer_norm", layernorm)]}
COMPILED = {"softmax": softmax, "rmsnorm_residual": rmsnorm_residual, "layernorm": layernorm}


# ---------------------------------------------------------------- Liger-Kernel
_LIGER = {}


def find_liger_wheel():
    env = os.environ.get("FUSELAB_LIGER_WHEEL")
    if env:
        return env
    for d in (os.path.join(ROOT, ".carry", "wheels"), os.path.join(ROOT, "gpu", "wheels")):
        found = sorted(glob.glob(os.path.join(d, f"liger_kernel-{LIGER_VERSION}-*.whl")))
        if found:
            return found[-1]
    return None


def load_liger(log=lambda *a: None):
    """liger_kernel.transformers.functional, installed from the carried wheel where it is not
    importable; raises with the reason where neither works. Its facts go to liger_meta()."""
    if "functional" in _LIGER:
        return _LIGER["functional"]
    if "error" in _LIGER:
        raise RuntimeError(_LIGER["error"])
    try:
        try:
            import liger_kernel  # noqa: F401  (already installed)
            _LIGER["installed_by"] = "already importable"
        except ImportError:
            wheel = find_liger_wheel()
            if not wheel:
                raise RuntimeError(f"no liger_kernel-{LIGER_VERSION} wheel (FUSELAB_LIGER_WHEEL, .carry/wheels/, "
                                   "gpu/wheels/; gpu/carry.sh carries it)") from None
            target = tempfile.mkdtemp(prefix="fuselab-liger-")
            r = subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "--no-index",
                                "--disable-pip-version-check", "--target", target, wheel],
                               capture_output=True, text=True)
            if r.returncode == 0:
                _LIGER["installed_by"] = "pip install --no-deps --no-index --target"
            else:  # a pure-Python wheel is a zip of the installed tree
                log(f"[peers] pip could not install {wheel} ({r.stderr.strip()[-300:]}); unzipping it")
                with zipfile.ZipFile(wheel) as z:
                    z.extractall(target)
                _LIGER["installed_by"] = "unzipped"
            sys.path.insert(0, target)
            _LIGER.update(wheel=os.path.relpath(wheel, ROOT) if wheel.startswith(ROOT) else wheel, target=target)
        try:
            import liger_kernel.transformers.functional as lf
            _LIGER["api"] = "liger_kernel.transformers.functional"
        except Exception as e:  # the same Functions, from the ops module
            import types

            from liger_kernel.ops import (LigerFusedAddRMSNormFunction, LigerLayerNormFunction,
                                          LigerSoftmaxFunction)
            lf = types.SimpleNamespace(liger_softmax=LigerSoftmaxFunction.apply,
                                       liger_fused_add_rms_norm=LigerFusedAddRMSNormFunction.apply,
                                       liger_layer_norm=LigerLayerNormFunction.apply)
            _LIGER["api"] = f"liger_kernel.ops (transformers.functional: {type(e).__name__}: {e})"[:300]
        from importlib import metadata
        try:
            _LIGER["version"] = metadata.version("liger-kernel")
        except metadata.PackageNotFoundError:
            _LIGER["version"] = None
        _LIGER["functional"] = lf
        log(f"[peers] Liger-Kernel {_LIGER['version']} ({_LIGER['installed_by']})")
        return lf
    except Exception as e:
        _LIGER["error"] = f"Liger-Kernel not loadable: {type(e).__name__}: {e}"[:1000]
        raise RuntimeError(_LIGER["error"]) from None


def liger_meta():
    return {k: v for k, v in _LIGER.items() if k != "functional"}


class Refused(Exception):
    """A peer's documented limit (Liger's rows longer than 65536), in its own words."""


def liger_fn(workload, n):
    """Liger's function of the workload, taking the inputs in INPUTS order."""
    lf = load_liger()
    if workload == "softmax":
        fn = lf.liger_softmax
    elif workload == "rmsnorm_residual":
        def fn(x, residual, w):
            return lf.liger_fused_add_rms_norm(x, residual, w, rowmath.EPS[workload], 0.0, "llama", False)
    else:
        def fn(x, w, b):
            return lf.liger_layer_norm(x, w, b, rowmath.EPS[workload])

    def call(*inputs):
        try:
            return fn(*inputs)
        except RuntimeError as e:
            if n > LIGER_MAX_N and "exceeds" in str(e):
                raise Refused(f"Liger-Kernel refuses N = {n}: {e}") from None
            raise
    return call
