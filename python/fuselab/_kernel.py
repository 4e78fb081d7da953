"""fuselab.kernel(): one variant, called on numpy arrays, torch tensors or DLPack objects."""
import ctypes
import sys

from . import _lib
from ._arrays import allocate_like, describe, stream_of
from ._lib import Error


def variants():
    """Every built variant, as `fuselab list --json` shows it: a list of dicts (pipeline,
    schedule, target, kind, summary, autoscheduler, kernels, intermediates, arguments,
    cuda_kernels with registers and spills, ...) plus "name" ("add_relu/fused/cuda")."""
    return [dict(v, name=f"{v['pipeline']}/{v['schedule']}/{v['target']}")
            for v in _lib.info()["variants"]]


def workloads():
    """The registered workloads: pipeline, size_format, tolerance, default sizes, arguments."""
    return [dict(w) for w in _lib.info()["workloads"]]


def kernel(pipeline, schedule, target="auto"):
    """The variant (pipeline, schedule, target) as a callable Kernel. target "auto" is "cuda"
    where a CUDA device is usable and the variant is built for it, else "cpu"."""
    if target == "auto":
        target = "cuda" if _lib.info()["cuda"]["usable"] else "cpu"
    for index, v in enumerate(_lib.info()["variants"]):
        if (v["pipeline"], v["schedule"], v["target"]) == (pipeline, schedule, target):
            return Kernel(index, v)
    same = sorted(v["schedule"] for v in _lib.info()["variants"]
                  if v["pipeline"] == pipeline and v["target"] == target)
    if same:
        raise Error(f"unknown variant {pipeline}/{schedule}/{target}: pipeline '{pipeline}' on "
                    f"{target} has schedules: {' '.join(same)}")
    raise Error(f"unknown variant {pipeline}/{schedule}/{target}: no pipeline '{pipeline}' is "
                f"built for target '{target}' (see fuselab.variants())")


class Kernel:
    """A callable variant. k(**arrays, stream=None): inputs by name (all required), outputs by
    name (optional: the missing ones are allocated like the inputs). Returns the outputs, one
    object or a tuple in the variant's order. `stream`: a CUDA stream (int handle or an object
    with .cuda_stream) for CUDA variants; by default PyTorch's current stream where a CUDA
    tensor is given, else the legacy default stream. No call waits for the device unless host
    memory must come back from it."""

    def __init__(self, index, record):
        self._index = index
        self.record = record
        self.pipeline, self.schedule, self.target = (record["pipeline"], record["schedule"],
                                                     record["target"])
        self.name = f"{self.pipeline}/{self.schedule}/{self.target}"
        self.inputs = [a["name"] for a in record["arguments"] if a["kind"] == "input"]
        self.outputs = [a["name"] for a in record["arguments"] if a["kind"] == "output"]
        self._dims = {a["name"]: a["dimensions"] for a in record["arguments"]}
        self._shapes = {}  # input shapes -> output shapes

    def __repr__(self):
        return f"fuselab.kernel({self.pipeline!r}, {self.schedule!r}, target={self.target!r})"

    def _error(self, msg):
        return Error(msg if msg.startswith(self.name) else f"{self.name}: {msg}")

    def __call__(self, stream=None, **arrays):
        unknown = [n for n in arrays if n not in self._dims]
        if unknown:
            raise Error(f"{self.name}: unknown argument '{unknown[0]}'; it takes "
                        f"{', '.join(self.inputs + self.outputs)}")
        missing = [n for n in self.inputs if arrays.get(n) is None]
        if missing:
            raise Error(f"{self.name}: missing input '{missing[0]}'; it takes "
                        f"{', '.join(self.inputs + self.outputs)}")
        described, keep = [], []
        for n in self.inputs:
            described.append(describe(arrays[n], self.name, n, writable=False, keep=keep))
        results = []
        for n in self.outputs:
            out = arrays.get(n)
            if out is None:
                out = allocate_like(arrays[self.inputs[0]], self._output_shape(n, described),
                                    self.name, n)
            results.append(out)
            described.append(describe(out, self.name, n, writable=True, keep=keep))
        args = (_lib.Arg * len(described))(*described)
        handle = stream_of(stream, arrays.values())
        try:
            _lib.invoke(self._index, args, handle)
        except Error as e:
            raise self._error(str(e) + _capture_hint(self, handle)) from None
        return results[0] if len(results) == 1 else tuple(results)

    def _output_shape(self, name, described):
        key = tuple((a.name, tuple(a.shape[i] for i in range(a.ndim))) for a in described)
        if key not in self._shapes:
            args = (_lib.Arg * len(described))(*described)
            try:
                self._shapes[key] = _lib.output_shapes(self.pipeline, args)
            except Error as e:
                raise self._error(f"cannot size the outputs ({e}); pass them by name") from None
        return self._shapes[key][name]

    def output_shapes(self, **inputs):
        """{output name: shape} for inputs of these shapes (tuples or arrays), without running."""
        described = []
        for n in self.inputs:
            shape = tuple(getattr(inputs[n], "shape", inputs[n]))
            a = _lib.Arg()
            a.name, a.ndim = n.encode(), len(shape)
            a.shape = (ctypes.c_int64 * len(shape))(*shape)
            described.append(a)
        args = (_lib.Arg * len(described))(*described)
        try:
            return _lib.output_shapes(self.pipeline, args)
        except Error as e:
            raise self._error(str(e)) from None


def _torch_cuda():
    torch = sys.modules.get("torch")
    return torch if torch is not None and torch.cuda.is_available() else None


def _capturing(torch, handle):
    """Whether the CUDA stream `handle` is capturing a CUDA graph."""
    with torch.cuda.stream(torch.cuda.ExternalStream(handle)):
        return torch.cuda.is_current_stream_capturing()


def _capture_hint(k, handle):
    """What to do when a call failed while its stream was capturing a CUDA graph."""
    if not handle or k.target != "cuda":
        return ""
    torch = _torch_cuda()
    try:
        if torch is None or not _capturing(torch, handle):
            return ""
    except Exception:
        return ""
    return ("; the stream is capturing a CUDA graph: call the variant once on that stream before "
            "capturing (Halide caches its intermediates' device memory per stream, and a capture "
            "cannot allocate or free device memory)")
