"""fuselab.kernel(): one variant, or a pipeline whose strategy is chosen per call, called on numpy
arrays, torch tensors or DLPack objects.

A call describes each argument straight off the object (_arrays.values), packs the descriptions
into a fuselab_arg block kept per argument list and thread (_arrays.Slots) and calls
fuselab_invoke; a pipeline kernel first looks its strategy up by (target, every argument's shape
and element type), asking fuselab_choose once per new key. Everything the runtime checks is left
to it, and its message (naming the variant) is raised as fuselab.Error."""
import ctypes
import re
import sys

from . import _lib
from ._arrays import (FAST, NUMPY_DATA, TORCH_TYPES, _NUMPY_META, Slots, _numpy_meta, allocate_like,
                      from_address, numpy_data, stream_of, torch_meta, values)
from ._lib import Error

_INVOKE = _lib.INVOKE
_ERR_LEN = _lib.ERR_LEN
_FAST = FAST  # [numpy.ndarray, torch.Tensor] once first seen
_NUMPY_DATA = NUMPY_DATA
_from_address = from_address


def variants():
    """Every built variant, as `fuselab list --json` shows it: a list of dicts (pipeline,
    schedule, target, kind, summary, autoscheduler, kernels, intermediates, arguments,
    cuda_kernels with registers and spills, ...) plus "name" ("add_relu/fused/cuda")."""
    return [dict(v, name=f"{v['pipeline']}/{v['schedule']}/{v['target']}")
            for v in _lib.info()["variants"]]


def workloads():
    """The registered workloads: pipeline, size_format, tolerance, default sizes, arguments."""
    return [dict(w) for w in _lib.info()["workloads"]]


_TARGETS = ("auto", "cpu", "cuda")


def _resolve(target):
    if target not in _TARGETS:
        raise Error(f"unknown target '{target}': fuselab targets are cpu, cuda and auto")
    if target == "auto":
        return "cuda" if _lib.info()["cuda"]["usable"] else "cpu"
    return target


def kernel(pipeline, schedule=None, target="auto", *, tune=False):
    """A callable Kernel.

    kernel(pipeline, schedule, target): the variant (pipeline, schedule, target).
    kernel(pipeline, target=...): the pipeline, its strategy chosen per call for the arguments'
    shapes, element type and target (fuselab_choose: a tuning record, else the cost model; with
    tune=True, or FUSELAB_TUNE=1, every strategy timed on the first call at a new shape); what it
    ran is in .chosen after each call.

    target "auto" is "cuda" where a CUDA device is usable (and, for a variant, it is built for
    it), else "cpu"."""
    if schedule is None:
        return PipelineKernel(pipeline, target, tune)
    if tune:
        raise Error(f"{pipeline}/{schedule}: tune=True chooses a strategy, so it needs the "
                    f"schedule left out: fuselab.kernel({pipeline!r}, tune=True)")
    target = _resolve(target)
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


# ---- what every kernel of a pipeline shares ------------------------------------------------------

_SLOTS = {}   # argument names in order -> Slots
_SHAPES = {}  # pipeline -> {input shapes: output shapes, in the outputs' order}


def _slots(names):
    s = _SLOTS.get(names)
    if s is None:
        s = _SLOTS[names] = Slots(names)
    return s


_DISAGREE = re.compile(r"input '[^']+' has extent -?\d+ in dimension \d+, expected -?\d+")
_INPUT_PROBLEM = re.compile(r"input '[^']+' has (rank|extent)|these inputs imply size")


def sizing_error(who, pipeline, msg):
    """Error for fuselab_output_shapes' refusal `msg`: the inputs disagree with each other, or one
    of them cannot be what the pipeline takes, or (only then suggesting it) fuselab cannot size
    the outputs by itself and they must be given."""
    reason = msg[len(pipeline) + 2:] if msg.startswith(pipeline + ": ") else msg
    if _DISAGREE.search(reason):
        return Error(f"{who}: the inputs disagree in shape: {reason}")
    if _INPUT_PROBLEM.search(reason):
        return Error(f"{who}: {reason}")
    return Error(f"{who}: cannot size the outputs ({msg}); pass them by name")


def output_shapes_of(pipeline, shapes, who):
    """{output name: shape} that inputs of these shapes ({name: tuple}) imply, from
    fuselab_output_shapes; Error naming `who` when they cannot."""
    args = (_lib.Arg * len(shapes))()
    keep = []
    for a, (n, shape) in zip(args, shapes.items()):
        shape_c = (ctypes.c_int64 * max(len(shape), 1))(*shape)
        keep.append(shape_c)
        a.name, a.ndim, a.shape = n.encode(), len(shape), shape_c
    try:
        return _lib.output_shapes(pipeline, args)
    except Error as e:
        raise sizing_error(who, pipeline, str(e)) from None


class _Callable:
    """The per-call path shared by Kernel (one variant) and PipelineKernel."""

    pipeline = name = target = None
    inputs = outputs = ()

    def _setup(self, names_in, names_out):
        self.inputs, self.outputs = list(names_in), list(names_out)
        self._names = tuple(names_in) + tuple(names_out)
        self._known = frozenset(self._names)
        self._n_in = len(names_in)
        self._slots = _slots(self._names)
        self._shapes = _SHAPES.setdefault(self.pipeline, {})
        self._single = len(names_out) == 1

    def _error(self, msg):
        return Error(msg if msg.startswith(self.name) else f"{self.name}: {msg}")

    def _objects(self, arrays):
        """The kwargs of a call as a list in argument order (None: an output to allocate)."""
        if not self._known.issuperset(arrays):
            unknown = next(n for n in arrays if n not in self._known)
            raise Error(f"{self.name}: unknown argument '{unknown}'; it takes "
                        f"{', '.join(self._names)}")
        return [arrays.get(n) for n in self._names]

    def _describe(self, objs):
        """(datas, metas, on_device, keep) of every argument (_arrays.values), outputs
        allocated where None (objs is updated). Exact numpy arrays and torch tensors are
        described inline: this is every call's cost."""
        who, names, n_in = self.name, self._names, self._n_in
        ndarray, tensor = _FAST
        offset = _NUMPY_DATA[0] if _NUMPY_DATA else None
        keep = []
        datas = []
        metas = []
        on_device = 0
        for i, obj in enumerate(objs):
            if obj is None:
                if i < n_in:
                    raise Error(f"{who}: missing input '{names[i]}'; it takes "
                                f"{', '.join(names)}")
                obj = objs[i] = allocate_like(objs[0], self._output_shape(i, metas), who,
                                              names[i])
            cls = type(obj)
            if cls is ndarray:
                metas.append(_NUMPY_META.get((obj.shape, obj.strides, obj.dtype))
                             or _numpy_meta(obj, who, names[i]))
                if i < n_in and offset is not None:
                    datas.append(_from_address(id(obj) + offset).value or 0)
                else:
                    datas.append(numpy_data(obj, who, names[i], i >= n_in))
            elif cls is tensor:
                t = TORCH_TYPES.get(obj.dtype)
                if t is None or obj.is_cuda or not obj.is_cpu:
                    meta = torch_meta(obj, who, names[i])
                    on_device |= meta[0]
                    metas.append(meta)
                else:
                    metas.append((0, obj.shape, obj.stride(), t[0], t[1]))
                datas.append(obj.data_ptr())
            else:
                data, meta = values(obj, who, names[i], i >= n_in, keep)
                datas.append(data)
                metas.append(meta)
                on_device |= meta[0]
        return datas, metas, on_device, keep

    def _output_shape(self, i, metas):
        key = tuple([m[1] for m in metas[:self._n_in]])
        shapes = self._shapes.get(key)
        if shapes is None:
            by_name = output_shapes_of(
                self.pipeline, {n: tuple(m[1]) for n, m in zip(self.inputs, metas)}, self.name)
            shapes = self._shapes[key] = tuple(by_name[n] for n in self.outputs)
        return shapes[i - self._n_in]

    def _result(self, objs):
        return objs[self._n_in] if self._single else tuple(objs[self._n_in:])

    def _invoke(self, index, base, err, on_device, objs, metas, stream):
        handle = stream_of(stream, objs) if stream is not None or on_device else None
        if _INVOKE(index, len(objs), base, handle, err, _ERR_LEN) != 0:
            raise self._error(self._diagnose(_lib.message(err), metas) +
                              _capture_hint(self, handle)) from None

    def _diagnose(self, msg, metas):
        """The runtime's message of a failed call, led by what is wrong with the shapes where
        the inputs disagree with each other or a given output is not the shape they imply
        (Halide's own words for that are an out-of-bounds access or a violated constraint).
        Only a failed call pays for this."""
        shapes = {n: tuple(m[1]) for n, m in zip(self.inputs, metas)}
        try:
            expected = output_shapes_of(self.pipeline, shapes, self.name)
        except Error as e:
            text = str(e)
            return f"{text} (the kernel: {msg})" if "inputs disagree" in text else msg
        except Exception:
            return msg
        for n, m in zip(self.outputs, metas[self._n_in:]):
            if tuple(m[1]) != tuple(expected[n]):
                return (f"{self.name}: output '{n}' has shape {tuple(m[1])}, but the inputs "
                        f"({', '.join(f'{k} {v}' for k, v in shapes.items())}) give it "
                        f"{tuple(expected[n])} (the kernel: {msg})")
        return msg

    def _refuse_capture(self, index, objs, stream):
        """For a CUDA variant that takes an input as kernel parameters (const_tiled and the
        like): the runtime copies that input to the host on every call and waits for the
        stream, which a CUDA graph capture cannot record (replays would keep the values of
        capture time), so refuse while the stream captures. Only such variants pay for this."""
        torch = _torch_cuda()
        if torch is None:
            return
        try:
            handle = stream_of(stream, objs)
            capturing = bool(handle) and _capturing(torch, handle)
        except Exception:
            return
        if capturing:
            v = _lib.info()["variants"][index]
            params = [a["name"] for a in v["arguments"] if "parameters" in a]
            name = f"{v['pipeline']}/{v['schedule']}/{v['target']}"
            what = (f"{name} takes" if name == self.name else
                    f"{self.name}: the strategy chosen, {name}, takes")
            raise Error(f"{what} {', '.join(repr(n) for n in params)} as kernel parameters, "
                        f"copied to the host on every call, which a CUDA graph capture cannot "
                        f"record; capture a strategy of {v['pipeline']} that reads them on the "
                        f"device (by name: fuselab.kernel({v['pipeline']!r}, SCHEDULE, 'cuda') "
                        f"or torch.ops.fuselab.{v['pipeline']}__SCHEDULE__cuda)")

    def output_shapes(self, **inputs):
        """{output name: shape} for inputs of these shapes (tuples or arrays), without running."""
        missing = [n for n in self.inputs if n not in inputs]
        if missing:
            raise Error(f"{self.name}: missing input '{missing[0]}'; it takes "
                        f"{', '.join(self._names)}")
        return output_shapes_of(
            self.pipeline, {n: tuple(int(s) for s in getattr(inputs[n], "shape", inputs[n]))
                            for n in self.inputs}, self.name)


class Kernel(_Callable):
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
        self._setup([a["name"] for a in record["arguments"] if a["kind"] == "input"],
                    [a["name"] for a in record["arguments"] if a["kind"] == "output"])
        self._dims = {a["name"]: a["dimensions"] for a in record["arguments"]}
        self._host_params = _host_params(record)

    def __repr__(self):
        return f"fuselab.kernel({self.pipeline!r}, {self.schedule!r}, target={self.target!r})"

    def __call__(self, stream=None, **arrays):
        return self.call(self._objects(arrays), stream)

    def call(self, objs, stream=None):
        """Positional form: `objs` a list of the inputs then the outputs in the variant's order
        (None: allocate), as torch_ops calls it. Returns the outputs."""
        datas, metas, on_device, keep = self._describe(objs)
        if self._host_params and on_device:
            self._refuse_capture(self._index, objs, stream)
        base, err = self._slots.fill(datas, metas)
        self._invoke(self._index, base, err, on_device, objs, metas, stream)
        return self._result(objs)


# (pipeline, target, tune) -> {every argument's (device, shape, strides, type_code, bits):
#                              (variant index, .chosen, whether it takes kernel parameters)}
_DECISIONS = {}


class PipelineKernel(_Callable):
    """A callable pipeline: k(**arrays, stream=None) as Kernel's, each call running the strategy
    fuselab_choose picks for these arguments' shapes, element type and the kernel's target (a
    tuning record, else with tune the strategies timed now, else the cost model). The decision is
    kept in this process per target and every argument's shape and element type (and device and
    strides), shared by every kernel of the pipeline, so a repeated call costs a dict lookup.
    After a call, .chosen is {"variant", "schedule", "source", "reason"} of what ran."""

    def __init__(self, pipeline, target="auto", tune=False):
        self.pipeline = pipeline
        self.target = _resolve(target)
        self.tune = bool(tune)
        self.schedule = None
        self.chosen = None
        self.name = f"{pipeline} on {self.target}"
        all_variants = _lib.info()["variants"]
        mine = [v for v in all_variants if v["pipeline"] == pipeline]
        if not mine:
            known = sorted({v["pipeline"] for v in all_variants})
            raise Error(f"no pipeline '{pipeline}' is built (known: {' '.join(known)})")
        self.variants = [f"{v['pipeline']}/{v['schedule']}/{v['target']}" for v in mine
                         if v["target"] == self.target]
        if not self.variants:
            targets = sorted({v["target"] for v in mine})
            raise Error(f"{pipeline}: no strategy is built for target '{self.target}' (built "
                        f"for: {' '.join(targets)})")
        w = next((w for w in _lib.info()["workloads"] if w["pipeline"] == pipeline), None)
        if w is not None:
            names_in = [a["name"] for a in w["arguments"] if not a["output"]]
            names_out = [a["name"] for a in w["arguments"] if a["output"]]
        else:
            args = mine[0]["arguments"]
            names_in = [a["name"] for a in args if a["kind"] == "input"]
            names_out = [a["name"] for a in args if a["kind"] == "output"]
        self._setup(names_in, names_out)
        self._decisions = _DECISIONS.setdefault((pipeline, self.target, self.tune), {})

    def __repr__(self):
        extra = ", tune=True" if self.tune else ""
        return f"fuselab.kernel({self.pipeline!r}, target={self.target!r}{extra})"

    def _error(self, msg):
        return Error(msg if msg.startswith(self.pipeline) else f"{self.name}: {msg}")

    def _run(self, objs, stream):
        datas, metas, on_device, keep = self._describe(objs)
        base, err = self._slots.fill(datas, metas)
        key = tuple(metas)  # every argument's device, shape, strides and element type
        decision = self._decisions.get(key)
        if decision is None:
            decision = self._choose(key, base, len(objs))
        self.chosen = decision[1]
        if decision[2] and on_device:
            self._refuse_capture(decision[0], objs, stream)
        self._invoke(decision[0], base, err, on_device, objs, metas, stream)
        return self._result(objs)

    def _choose(self, key, base, nargs):
        try:
            c = _lib.choose(self.pipeline, self.target, nargs, base, self.tune)
        except Error as e:
            raise self._error(str(e)) from None
        decision = (c["index"], {k: c.get(k) for k in ("variant", "schedule", "source",
                                                       "reason")},
                    _host_params(_lib.info()["variants"][c["index"]]))
        if len(self._decisions) > 4096:
            self._decisions.clear()
        self._decisions[key] = decision
        return decision

    def __call__(self, stream=None, **arrays):
        return self._run(self._objects(arrays), stream)

    def call(self, objs, stream=None):
        """Positional form: inputs then outputs in the pipeline's order (None: allocate)."""
        return self._run(objs, stream)


def _host_params(record):
    """Whether a variant record is a CUDA one taking an input as kernel parameters."""
    return record["target"] == "cuda" and any("parameters" in a for a in record["arguments"])


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
