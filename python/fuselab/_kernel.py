"""fuselab.kernel(): one variant, or a pipeline whose strategy is chosen per call, called on numpy
arrays, torch tensors or DLPack objects.

A call describes each argument straight off the object (_arrays.values), packs the descriptions
into a fuselab_arg block kept per argument list and thread (_arrays.Slots) and calls
fuselab_invoke; a pipeline kernel first looks its strategy up by (target, every argument's shape
and element type), asking fuselab_choose once per new key. Torch tensors go instead to the torch
ops' C++ entry (_torch_ops.cpp), once a first call has named the variant there: __call__ hands it
the keyword dict itself, and it declines (running nothing) whatever this path must check or
word. Everything the runtime checks is left to it, and its message (naming the variant) is
raised as fuselab.Error.

Storage types: a variant has one ("float32", "bfloat16" or "float16", its record's "dtype";
its name carries it as a fourth part where it is not float32, "softmax/block_row/cpu/bfloat16").
A strategy built in several types, named without a dtype, runs the variant of its first input's
type, looked up per call in a dict. bfloat16 is read as its bits: torch.bfloat16 tensors, numpy
uint16 arrays and ml_dtypes.bfloat16 arrays, in place.

Row pipelines (softmax, rmsnorm_residual, layernorm: x of [M, N] rows, Halide (N, M), and
vectors w, b of N) take x, residual and their outputs as [*, N] of any leading shape: a rank
other than 2 is flattened to M rows, as a view where the strides allow (an input that cannot be
viewed so is copied, as torch.reshape does; an output given must be viewable, else Error), and
the outputs come back in x's shape and storage type. A 2-D x takes the per-call path of every
other kernel (its row stride honoured in place); the innermost dimension must be dense, as for
every kernel.

Empty arguments (an empty batch: softmax's x of [0, N], add_relu's a and b of 0 elements): the
outputs come back empty, in the shapes the inputs imply (empty_output_shapes), allocated as any
output is, and the runtime, which refuses zero extents, is not called. A call with anything
else wrong (a type, shapes that disagree, a given output that is not empty) still goes to the
runtime, which refuses it in its own words."""
import ctypes
import re
import sys

from . import _lib, _torch_ext
from ._arrays import (FAST, NUMPY_DATA, STORAGE_OF, STORAGE_TYPES, TORCH_TYPES, _NUMPY_META,
                      Slots, _is_numpy, _is_torch, _numpy_meta, allocate_like, from_address,
                      numpy_data, storage_name, stream_of, torch_meta, values)
from ._lib import Error

_INVOKE = _lib.INVOKE
_ERR_LEN = _lib.ERR_LEN
_FAST = FAST  # [numpy.ndarray, torch.Tensor] once first seen
_NUMPY_DATA = NUMPY_DATA
_from_address = from_address


def variants():
    """Every built variant, as `fuselab list --json` shows it: a list of dicts (pipeline,
    schedule, target, dtype, kind, summary, autoscheduler, kernels, intermediates, arguments,
    cuda_kernels with registers and spills, ...) plus "name" ("add_relu/fused/cuda",
    "softmax/block_row/cuda/bfloat16": the storage type a fourth part where not float32)."""
    return [dict(v) for v in _lib.info()["variants"]]


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


def dtype_name(dtype):
    """A storage type's name from a name ("bfloat16"), a torch dtype (torch.bfloat16) or a numpy
    dtype (float32, float16, ml_dtypes.bfloat16); None stays None. Error for any other."""
    if dtype is None:
        return None
    name = getattr(dtype, "name", None) if not isinstance(dtype, str) else dtype
    if not isinstance(name, str):  # a torch dtype has no .name: "torch.bfloat16"
        name = str(dtype)
    name = name[6:] if name.startswith("torch.") else name
    if name not in _lib.DTYPES:
        raise Error(f"unknown storage type {dtype!r}: fuselab's are {', '.join(_lib.DTYPES)}")
    return name


def kernel(pipeline, schedule=None, target="auto", dtype=None, *, tune=False):
    """A callable Kernel.

    kernel(pipeline, schedule, target, dtype): the variant (pipeline, schedule, target, dtype).
    dtype None: the strategy's only storage type (float32 for every pipeline but the row ones);
    where it is built in several, the variant of the first input's type, per call.
    kernel(pipeline, target=..., dtype=None): the pipeline, its strategy chosen per call for the
    arguments' shapes, storage type and target (fuselab_choose: a tuning record, else the cost
    model; with tune=True, or FUSELAB_TUNE=1, every strategy timed on the first call at a new
    shape); what it ran is in .chosen after each call. A dtype given restricts it to that type
    (arguments of another are refused).

    target "auto" is "cuda" where a CUDA device is usable (and, for a variant, it is built for
    it), else "cpu"."""
    dtype = dtype_name(dtype)
    if schedule is None:
        return PipelineKernel(pipeline, target, tune, dtype)
    if tune:
        raise Error(f"{pipeline}/{schedule}: tune=True chooses a strategy, so it needs the "
                    f"schedule left out: fuselab.kernel({pipeline!r}, tune=True)")
    target = _resolve(target)
    mine = [(index, v) for index, v in enumerate(_lib.info()["variants"])
            if (v["pipeline"], v["schedule"], v["target"]) == (pipeline, schedule, target)
            and dtype in (None, v["dtype"])]
    if mine:
        # float32 first where it is among them: the record a dtype-less kernel shows
        mine.sort(key=lambda iv: (iv[1]["dtype"] != "float32", iv[0]))
        return Kernel(mine[0][0], mine[0][1], mine[1:] if dtype is None else ())
    wanted = dtype or "float32"
    _lib.find_variant(pipeline, schedule, target, wanted)  # raises the runtime's message
    name = f"{pipeline}/{schedule}/{target}" + ("" if wanted == "float32" else f"/{wanted}")
    same = sorted(v["schedule"] for v in _lib.info()["variants"]
                  if v["pipeline"] == pipeline and v["target"] == target and v["dtype"] == wanted)
    types = sorted({v["dtype"] for v in _lib.info()["variants"]
                    if v["pipeline"] == pipeline and v["target"] == target})
    if same:
        raise Error(f"unknown variant {name}: pipeline '{pipeline}' on {target} in {wanted} has "
                    f"schedules: {' '.join(same)}")
    if types:
        raise Error(f"unknown variant {name}: pipeline '{pipeline}' on {target} is built for the "
                    f"storage types {' '.join(types)}, not {wanted}")
    raise Error(f"unknown variant {name}: no pipeline '{pipeline}' is built for target "
                f"'{target}' (see fuselab.variants())")


# ---- row pipelines -------------------------------------------------------------------------------

ROW_PIPELINES = ("softmax", "rmsnorm_residual", "layernorm")


def _workload_record(pipeline):
    return next((w for w in _lib.info()["workloads"] if w["pipeline"] == pipeline), None)


def row_arguments(pipeline, names, dims):
    """For a row pipeline (one of ROW_PIPELINES, or a workload of size format NxM), the positions
    in `names` of its [M, N] arguments (`dims`: name -> rank); None for any other pipeline."""
    w = _workload_record(pipeline)
    if pipeline not in ROW_PIPELINES and (w is None or w.get("size_format") != "NxM"):
        return None
    return tuple(i for i, n in enumerate(names) if dims.get(n) == 2)


def _prod(values):
    m = 1
    for v in values:
        m *= int(v)
    return m


def _rows_view(obj, rows, n, output, who, name):
    """`obj` ([*, N]) as [rows, N]: a view, or for an input a copy where its strides do not allow
    one; an output that cannot be viewed is an Error. Objects other than numpy arrays and torch
    tensors go as they are (the runtime refuses their rank)."""
    if _is_torch(obj):
        if not output:
            return obj.reshape(rows, n)
        try:
            return obj.view(rows, n)
        except RuntimeError:
            pass
    elif _is_numpy(obj):
        if not output:
            return obj.reshape(rows, n)
        try:
            return obj.reshape((rows, n), copy=False)  # numpy >= 2.1: ValueError for a copy
        except ValueError:
            pass
        except TypeError:  # an older numpy: a view whose shape can be set, or AttributeError
            v = obj.view()
            try:
                v.shape = (rows, n)
                return v
            except AttributeError:
                pass
    else:
        return obj
    raise Error(f"{who}: output '{name}' of shape {tuple(obj.shape)} has strides that cannot be "
                f"viewed as {rows} rows of {n}; give a contiguous one, or none (it is allocated)")


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


def _output_shapes(pipeline, shapes):
    args = (_lib.Arg * len(shapes))()
    keep = []
    for a, (n, shape) in zip(args, shapes.items()):
        shape_c = (ctypes.c_int64 * max(len(shape), 1))(*shape)
        keep.append(shape_c)
        a.name, a.ndim, a.shape = n.encode(), len(shape), shape_c
    return _lib.output_shapes(pipeline, args)


def output_shapes_of(pipeline, shapes, who):
    """{output name: shape} that inputs of these shapes ({name: tuple}) imply, from
    fuselab_output_shapes (for inputs with zero extents, which it refuses: empty_output_shapes);
    Error naming `who` when they cannot."""
    try:
        return _output_shapes(pipeline, shapes)
    except Error as e:
        empty = empty_output_shapes(pipeline, shapes)
        if empty is None:
            raise sizing_error(who, pipeline, str(e)) from None
        return empty


def empty_output_shapes(pipeline, shapes):
    """The output shapes that inputs with zero extents imply, where every output is then empty.
    fuselab_output_shapes refuses zero extents, so it is asked with them made 2, then 4, and each
    output extent is extrapolated linearly back to 0 (every workload's is linear in its inputs'
    extents, rounding aside: conv_relu_pool's H / 2 gives 1, 2, so 0): add_relu's 0 gives 0,
    softmax's x of [0, N] gives [0, N]. None where no input has a zero extent, where either probe
    is refused (the inputs disagree; an input that carries a halo), or where an output would have
    elements or a negative extent (a conv over zero channels: only a kernel could fill it)."""
    if not any(0 in s for s in shapes.values()):
        return None
    try:
        a, b = (_output_shapes(pipeline, {n: tuple(e or probe for e in s)
                                          for n, s in shapes.items()}) for probe in (2, 4))
    except Error:
        return None
    out = {o: tuple(2 * x - y for x, y in zip(a[o], b[o])) for o in a}
    return out if all(min(s, default=1) == 0 for s in out.values()) else None


class _Callable:
    """The per-call path shared by Kernel (one variant) and PipelineKernel."""

    pipeline = name = target = None
    inputs = outputs = ()
    rows = None  # a row pipeline: the positions of its [M, N] arguments (row_arguments)
    # The C++ entry __call__ hands its keyword dict to first (_torch_ops.cpp's call, a pipeline's
    # call_decided), set once a call on torch tensors has loaded it and named the variant there;
    # None: every call takes the Python path.
    _fast = None

    def _setup(self, names_in, names_out, dims=None):
        self.inputs, self.outputs = list(names_in), list(names_out)
        self._names = tuple(names_in) + tuple(names_out)
        self._known = frozenset(self._names)
        self._n_in = len(names_in)
        self._slots = _slots(self._names)
        self._shapes = _SHAPES.setdefault(self.pipeline, {})
        self._single = len(names_out) == 1
        self.rows = row_arguments(self.pipeline, self._names, dims or {})
        if self.rows is not None:
            self._output_shape = self._row_output_shape

    def _row_output_shape(self, i, metas):
        return metas[0][1]  # every output of a row pipeline is x's shape

    def _rows_in(self, objs):
        """A row pipeline's arguments for the kernel: objs itself where x is 2-D (or absent);
        else (x of [*, N]) every [M, N] argument as [M, N] rows (_rows_view), the outputs not
        given allocated in x's shape, and the list to return the outputs from (their full
        shapes). Returns (objs for the kernel, objs to return from, or None)."""
        x = objs[0]
        shape = getattr(x, "shape", None)
        if shape is None or len(shape) == 2:
            return objs, None
        who = self.name
        shape = tuple(shape)  # numpy's, or a torch.Size: ints
        if not shape:
            raise Error(f"{who}: input '{self._names[0]}' has rank 0; a row pipeline takes "
                        f"[*, N] rows")
        n = shape[-1]
        rows = _prod(shape[:-1])
        flat, full = list(objs), list(objs)
        for i in self.rows:
            o, name = objs[i], self._names[i]
            output = i >= self._n_in
            if o is None:
                if not output:
                    continue  # refused by _describe, by name
                o = full[i] = allocate_like(x, shape, who, name)
            elif tuple(getattr(o, "shape", ())) != shape:
                got = tuple(getattr(o, "shape", ()))
                if output:
                    raise Error(f"{who}: output '{name}' has shape {got}, but the inputs give it "
                                f"{shape}, the shape of '{self._names[0]}'")
                raise Error(f"{who}: the inputs disagree in shape: '{name}' has shape {got} and "
                            f"'{self._names[0]}' {shape}")
            flat[i] = _rows_view(o, rows, n, output, who, name)
        return flat, full

    def _tensor_call(self, index, objs, stream):
        """Every input a torch tensor, every output one or None (_tensors): variant `index` called
        through the torch ops' C++ entry (_torch_ops.cpp: invoke), with no ctypes and no
        description in Python. False where it declines or the runtime refuses (nothing ran): the
        caller's path then runs the call, and words any refusal."""
        invoke = _TENSOR_EXT[1] if _TENSOR_EXT[2] else _tensor_invoke()
        if invoke is None or index is None:
            return False
        self._allocate(objs)
        if index not in _NAMED:
            _name_variant(index, self)
        if self._by_type is None and not self._host_params and _TENSOR_EXT[4] is not None:
            self._fast = _TENSOR_EXT[4].call  # one variant: __call__ goes there first
        return invoke(index, objs, -1 if stream is None else
                      (getattr(stream, "cuda_stream", stream) or 0))

    def _allocate(self, objs):
        """The outputs left None allocated, as _describe would; whether any was."""
        n_in = self._n_in
        shapes = None
        for i in range(n_in, len(objs)):
            if objs[i] is None:
                if shapes is None:  # every output's, once: _output_shape's, keyed as it keys
                    if self.rows is not None:
                        shapes = (objs[0].shape,) * (len(objs) - n_in)
                    else:
                        key = tuple([o.shape for o in objs[:n_in]])
                        shapes = self._shapes.get(key)
                        if shapes is None:
                            metas = [(0, s) for s in key]
                            shapes = [self._output_shape(j, metas) for j in range(n_in, len(objs))]
                objs[i] = allocate_like(objs[0], shapes[i - n_in], self.name, self._names[i])
        return shapes is not None

    def _tensors(self, objs):
        """Whether every input is a torch tensor, and every output one or None."""
        tensor = _FAST[1]
        n_in = self._n_in
        i = 0
        for o in objs:
            if type(o) is not tensor and (o is not None or i < n_in):
                return False
            i += 1
        return True

    def _error(self, msg):
        return Error(msg if msg.startswith(self.name) else f"{self.name}: {msg}")

    def _objects(self, arrays):
        """The kwargs of a call as a list in argument order (None: an output to allocate)."""
        if not self._known.issuperset(arrays):
            unknown = next(n for n in arrays if n not in self._known)
            raise Error(f"{self.name}: unknown argument '{unknown}'; it takes "
                        f"{', '.join(self._names)}")
        return [*map(arrays.get, self._names)]

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

    def _empty_call(self, index, metas, on_device):
        """Whether a call of variant `index` (None: none fits) on these arguments, some with a
        zero extent, is one the runtime would run but for its refusal of zero extents: every
        argument of the variant's type and on memory it takes, and every output empty, of the
        shape the inputs imply (empty_output_shapes). Such a call has nothing to compute: the
        caller returns its outputs without calling the runtime. Any other goes to the runtime,
        which refuses it in its own words."""
        if index is None:
            return False
        v = _lib.info()["variants"][index]
        if v["target"] == "cuda" and not _lib.info()["cuda"]["usable"]:
            return False
        if on_device and v["target"] != "cuda":
            return False
        types = {a["name"]: _ARGUMENT_TYPES.get(a["type"]) for a in v["arguments"]}
        if any(types.get(n) != m[3:5] for n, m in zip(self._names, metas)):
            return False
        shapes = empty_output_shapes(self.pipeline, {n: tuple(m[1]) for n, m in
                                                     zip(self.inputs, metas)})
        return shapes is not None and all(tuple(m[1]) == shapes[o] for o, m in
                                          zip(self.outputs, metas[self._n_in:]))

    def _invoke(self, index, base, err, on_device, objs, metas, stream):
        handle = stream_of(stream, objs) if stream is not None or on_device else None
        if _INVOKE(index, len(objs), base, handle, err, _ERR_LEN) != 0:
            raise self._error(_name_types(self._diagnose(_lib.message(err), metas), objs,
                                          self._names) + _capture_hint(self, handle)) from None

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

    def __init__(self, index, record, others=()):
        """The variant `index` (its record); `others`: (index, record) of the same strategy in
        other storage types, among which a call picks by its first input's type."""
        self._index = index
        self.record = record
        self.pipeline, self.schedule, self.target = (record["pipeline"], record["schedule"],
                                                     record["target"])
        self.dtype = None if others else record["dtype"]
        self.dtypes = [record["dtype"]] + [r["dtype"] for _, r in others]
        self.records = {record["dtype"]: record, **{r["dtype"]: r for _, r in others}}
        self.name = record["name"] if not others else \
            f"{self.pipeline}/{self.schedule}/{self.target}"
        self._dims = {a["name"]: a["dimensions"] for a in record["arguments"]}
        self._setup([a["name"] for a in record["arguments"] if a["kind"] == "input"],
                    [a["name"] for a in record["arguments"] if a["kind"] == "output"], self._dims)
        self._host_params = _host_params(record)
        # (type_code, bits) of the first input -> variant index, where several types are built
        self._by_type = None
        if others:
            self._by_type = {}
            for i, r in [(index, record), *others]:
                self._by_type[_first_input_type(r)] = i
                self._host_params = self._host_params or _host_params(r)

    def __repr__(self):
        dtype = "" if self.dtype in (None, "float32") else f", dtype={self.dtype!r}"
        return (f"fuselab.kernel({self.pipeline!r}, {self.schedule!r}, target={self.target!r}"
                f"{dtype})")

    def __call__(self, stream=None, **arrays):
        fast = self._fast
        if fast is not None:
            # Torch tensors of a kind the C++ entry takes: it runs the call off the keyword dict
            # (allocating the outputs left out) and returns the outputs, with no Python frame of
            # ours between; else (None: it declined, nothing ran) call()'s path, which checks
            # and words everything.
            got = fast(self._index, arrays, self._names, -1 if stream is None else
                       (getattr(stream, "cuda_stream", stream) or 0))
            if got is not None:
                return got
        return self.call(self._objects(arrays), stream)

    def call(self, objs, stream=None):
        """Positional form: `objs` a list of the inputs then the outputs in the variant's order
        (None: allocate), as torch_ops calls it. Returns the outputs."""
        full = None
        if self.rows is not None:
            objs, full = self._rows_in(objs)
        if not self._host_params and type(objs[0]) is _FAST[1] and self._tensors(objs):
            index = self._index if self._by_type is None else \
                self._by_type.get(TORCH_TYPES.get(objs[0].dtype))
            if self._tensor_call(index, objs, stream):
                return self._result(objs if full is None else full)
        datas, metas, on_device, keep = self._describe(objs)
        index = self._index
        if self._by_type is not None:
            m = metas[0]
            index = self._by_type.get((m[3], m[4]))
            if index is None:
                raise Error(f"{self.name}: input '{self._names[0]}' holds "
                            f"{storage_name(objs[0])}; this strategy is built for "
                            f"{', '.join(self.dtypes)} (bfloat16 as torch.bfloat16, numpy uint16 "
                            f"bits or ml_dtypes.bfloat16)")
        base, err, empty = self._slots.fill(datas, metas)
        if empty and self._empty_call(index, metas, on_device):
            return self._result(objs if full is None else full)
        if self._host_params and on_device:
            self._refuse_capture(index, objs, stream)
        self._invoke(index, base, err, on_device, objs, metas, stream)
        return self._result(objs if full is None else full)


# torch.ops.fuselab_ext, its invoke, whether tried, its invoke_decided (the ops' callables, or
# the CPython entry's), and the CPython entry (_torch_ext.PY_ENTRY: what __call__ tries first)
_TENSOR_EXT = [None, None, False, None, None]
_TABLES = {}  # (pipeline, target, tune, dtype) -> (its C++ decision table, {index: decision})
_NAMED = set()  # the variant indices whose argument names the C++ entry holds


def _tensor_invoke():
    """The C++ entry's invoke, loading it on first use (_torch_ext: built once, cached): the
    library's CPython function where it has one (no torch op binding: 1.5 us a call less), else
    torch.ops.fuselab_ext.invoke.default; None where it cannot be had (the reason is torch_ops's
    warning). Both take (index, [tensors], stream) and answer the same."""
    if not _TENSOR_EXT[2]:
        ext, _ = _torch_ext.get(sys.modules["torch"])
        if ext is not None:
            py = _torch_ext.PY_ENTRY[0]
            _TENSOR_EXT[0] = ext
            if py is not None:
                _TENSOR_EXT[1], _TENSOR_EXT[3], _TENSOR_EXT[4] = py.invoke, py.invoke_decided, py
            else:  # the overloads' own callables: one Python frame fewer a call
                _TENSOR_EXT[1] = getattr(ext.invoke.default, "_op", ext.invoke.default)
                _TENSOR_EXT[3] = getattr(ext.invoke_decided.default, "_op",
                                         ext.invoke_decided.default)
        _TENSOR_EXT[2] = True
    return _TENSOR_EXT[1]


def _name_variant(index, k):
    """Tells the C++ entry variant `index`'s argument names (k's), how many are inputs, its
    pipeline (whose shape rule sizes the outputs it allocates), and whether k is a row
    pipeline's (it then takes only a 2-D x: any other rank is flattened by k's path)."""
    _NAMED.add(index)
    _TENSOR_EXT[0].set_names(index, list(k._names), k.rows is not None, k._n_in, k.pipeline)


# (pipeline, target, tune, dtype) -> {every argument's (device, shape, strides, type_code, bits):
#                              (variant index, .chosen, whether it takes kernel parameters)}
_DECISIONS = {}


class PipelineKernel(_Callable):
    """A callable pipeline: k(**arrays, stream=None) as Kernel's, each call running the strategy
    fuselab_choose picks for these arguments' shapes, element type and the kernel's target (a
    tuning record, else with tune the strategies timed now, else the cost model). The decision is
    kept in this process per target and every argument's shape and element type (and device and
    strides), shared by every kernel of the pipeline, so a repeated call costs a dict lookup.
    After a call, .chosen is {"variant", "schedule", "dtype", "source", "reason"} of what ran.
    dtype: None, the variant of the arguments' storage type; a name, that type only (arguments
    of another refused)."""

    def __init__(self, pipeline, target="auto", tune=False, dtype=None):
        self.pipeline = pipeline
        self.target = _resolve(target)
        self.tune = bool(tune)
        self.dtype = dtype_name(dtype)
        self.schedule = None
        self.chosen = None
        self.decision = None  # the last call's (variant index, .chosen, takes kernel parameters)
        # The C++ entry's table of the decisions on torch tensors (shared as _decisions is), and
        # those decisions by variant index.
        self._table, self._by_index = _TABLES.setdefault(
            (pipeline, self.target, self.tune, self.dtype), (len(_TABLES), {}))
        self.name = f"{pipeline} on {self.target}" + (f" in {self.dtype}" if self.dtype else "")
        all_variants = _lib.info()["variants"]
        mine = [v for v in all_variants if v["pipeline"] == pipeline]
        if not mine:
            known = sorted({v["pipeline"] for v in all_variants})
            raise Error(f"no pipeline '{pipeline}' is built (known: {' '.join(known)})")
        here = [v for v in mine if v["target"] == self.target]
        if not here:
            targets = sorted({v["target"] for v in mine})
            raise Error(f"{pipeline}: no strategy is built for target '{self.target}' (built "
                        f"for: {' '.join(targets)})")
        self.variants = [v["name"] for v in here if self.dtype in (None, v["dtype"])]
        self.dtypes = list(dict.fromkeys(v["dtype"] for v in here))
        if not self.variants:
            raise Error(f"{pipeline}: no strategy is built for target '{self.target}' in "
                        f"{self.dtype} (built in: {' '.join(self.dtypes)})")
        w = _workload_record(pipeline)
        if w is not None:
            names_in = [a["name"] for a in w["arguments"] if not a["output"]]
            names_out = [a["name"] for a in w["arguments"] if a["output"]]
            dims = {a["name"]: a["dimensions"] for a in w["arguments"]}
        else:
            args = mine[0]["arguments"]
            names_in = [a["name"] for a in args if a["kind"] == "input"]
            names_out = [a["name"] for a in args if a["kind"] == "output"]
            dims = {a["name"]: a["dimensions"] for a in args}
        self._setup(names_in, names_out, dims)
        self._decisions = _DECISIONS.setdefault((pipeline, self.target, self.tune, self.dtype),
                                                {})

    def __repr__(self):
        extra = ", tune=True" if self.tune else ""
        extra += f", dtype={self.dtype!r}" if self.dtype else ""
        return f"fuselab.kernel({self.pipeline!r}, target={self.target!r}{extra})"

    def _error(self, msg):
        return Error(msg if msg.startswith(self.pipeline) else f"{self.name}: {msg}")

    def _run(self, objs, stream, tried=False):
        """The call on `objs`; `tried`: __call__ has asked the C++ entry for exactly these."""
        full = None
        if self.rows is not None:
            objs, full = self._rows_in(objs)
        tensors = type(objs[0]) is _FAST[1] and self._tensors(objs) and (
            _TENSOR_EXT[1] if _TENSOR_EXT[2] else _tensor_invoke()) is not None
        if tensors:  # torch tensors: the C++ entry, where their decision is known there
            if _TENSOR_EXT[4] is not None:
                self._fast = _TENSOR_EXT[4].call_decided
            if self._allocate(objs) or full is not None or not tried:
                index = _TENSOR_EXT[3](self._table, objs, -1 if stream is None else
                                       (getattr(stream, "cuda_stream", stream) or 0))
                if index >= 0:
                    self.chosen, self.decision = self._by_index[index][1], self._by_index[index]
                    return self._result(objs if full is None else full)
        datas, metas, on_device, keep = self._describe(objs)
        base, err, empty = self._slots.fill(datas, metas)
        key = tuple(metas)  # every argument's device, shape, strides and element type
        decision = self._decisions.get(key)
        if decision is None:  # an empty call is never kept (fuselab_choose refuses it)
            if empty and self._empty_call(self._variant_of_type(metas[0]), metas, on_device):
                self.chosen = self.decision = None  # nothing ran
                return self._result(objs if full is None else full)
            decision = self._choose(key, base, len(objs), objs)
        self.chosen, self.decision = decision[1], decision
        if decision[2] and on_device:
            self._refuse_capture(decision[0], objs, stream)
        self._invoke(decision[0], base, err, on_device, objs, metas, stream)
        if tensors and not decision[2]:
            if decision[0] not in _NAMED:
                _name_variant(decision[0], self)
            self._by_index[decision[0]] = decision
            _TENSOR_EXT[0].decide(self._table, decision[0], objs)
        return self._result(objs if full is None else full)

    def _variant_of_type(self, meta):
        """The index of a variant of this pipeline and target in the storage type of `meta`
        (the first input's), within self.dtype; None where there is none."""
        dtype = STORAGE_OF.get(meta[3:5])
        if self.dtype not in (None, dtype):
            return None
        return next((i for i, v in enumerate(_lib.info()["variants"])
                     if (v["pipeline"], v["target"], v["dtype"]) ==
                     (self.pipeline, self.target, dtype)), None)

    def _choose(self, key, base, nargs, objs):
        if self.dtype is not None and STORAGE_OF.get(key[0][3:5]) != self.dtype:
            raise Error(f"{self.name}: input '{self._names[0]}' holds {storage_name(objs[0])}, "
                        f"not {self.dtype}")
        try:
            c = _lib.choose(self.pipeline, self.target, nargs, base, self.tune)
        except Error as e:
            raise self._error(_name_types(str(e), objs, self._names)) from None
        decision = (c["index"], {k: c.get(k, "float32" if k == "dtype" else None)
                                 for k in ("variant", "schedule", "dtype", "source", "reason")},
                    _host_params(_lib.info()["variants"][c["index"]]))
        if len(self._decisions) > 4096:
            self._decisions.clear()
        self._decisions[key] = decision
        return decision

    def __call__(self, stream=None, **arrays):
        fast = self._fast
        if fast is not None:
            # The C++ entry runs the decision kept for these tensors (_run's decide) off the
            # keyword dict, as Kernel's does, and says which; else (None: nothing ran) _run's
            # path, told that the entry has seen these arguments.
            got = fast(self._table, arrays, self._names, -1 if stream is None else
                       (getattr(stream, "cuda_stream", stream) or 0))
            if got is not None:
                self.decision = decision = self._by_index[got[0]]
                self.chosen = decision[1]
                return got[1]
        return self._run(self._objects(arrays), stream, fast is not None)

    def call(self, objs, stream=None):
        """Positional form: inputs then outputs in the pipeline's order (None: allocate)."""
        return self._run(objs, stream)


# A variant record's argument "type" as the C ABI's (type_code, bits).
_ARGUMENT_TYPES = {"float32": (2, 32), "float16": (2, 16), "uint16": (1, 16)}


def _first_input_type(record):
    """(type_code, bits) of a variant's first input, as the C ABI describes it (its storage type
    where the record has one)."""
    st = STORAGE_TYPES.get(record.get("dtype", "float32"))
    if st is not None:
        return st
    t = next(a["type"] for a in record["arguments"] if a["kind"] == "input")
    return _ARGUMENT_TYPES.get(t, (2, 32))


_TYPE_WORD = re.compile(r"'([^']+)' has type uint16(?! \()")


def _name_types(msg, objs, names):
    """The runtime's message with a bfloat16 argument's type in words: it says uint16 (the bits
    every bfloat16 variant takes, which a torch.bfloat16 tensor or an ml_dtypes array is)."""
    def word(m):
        try:
            obj = objs[names.index(m.group(1))]
        except (ValueError, IndexError):
            return m.group(0)
        return m.group(0) + " (bfloat16 bits)" if storage_name(obj) == "bfloat16" else m.group(0)
    return _TYPE_WORD.sub(word, msg) if "uint16" in msg else msg


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
