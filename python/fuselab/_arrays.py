"""Describing the caller's arrays to the C ABI without copying them: numpy arrays, torch tensors
(by data_ptr, shape and strides, as PyTorch's Halide backend does) and any object with
__dlpack__.

The per-call path makes no ctypes object: each argument becomes a tuple
(data, device, shape, strides in elements, type_code, bits), read straight off the object, and
Slots packs those into a fuselab_arg array (and its shapes and strides) held per argument list and
per thread, with one struct.pack_into. What the runtime checks (rank, element type, extents,
overlap, devices) is left to it: its message names the variant."""
import ctypes
import struct
import sys
import threading

from . import _lib
from ._lib import Error

# halide_type_code_t
_INT, _UINT, _FLOAT, _BFLOAT = 0, 1, 2, 4
_DL_CPU, _DL_CUDA, _DL_CUDA_HOST = 1, 2, 3

MAX_DIMS = 16  # the C ABI's largest rank (fuselab_c.cpp refuses more before reading the shape)


def _arg(name, data, device, shape, strides, code, bits, keep):
    a = _lib.Arg()
    n = len(shape)
    shape_c = (ctypes.c_int64 * n)(*shape)
    strides_c = (ctypes.c_int64 * n)(*strides)
    keep += [shape_c, strides_c]
    a.name, a.data, a.device, a.ndim = name.encode(), data, device, n
    a.shape, a.strides, a.type_code, a.bits = shape_c, strides_c, code, bits
    return a


def _is_torch(obj):
    return type(obj).__module__.startswith("torch") and hasattr(obj, "data_ptr")


def _is_numpy(obj):
    np = sys.modules.get("numpy")
    return np is not None and isinstance(obj, np.ndarray)


def is_ml_bfloat16(dtype):
    """Whether a numpy dtype is ml_dtypes.bfloat16 (a 2-byte 'V' type named bfloat16): its
    bytes are bfloat16's bits, taken as uint16 (ml_dtypes is never imported here)."""
    return dtype.kind == "V" and dtype.itemsize == 2 and dtype.name == "bfloat16"


def _numpy_type(dtype, who, name):
    kinds = {"f": _FLOAT, "i": _INT, "u": _UINT, "b": _UINT}
    if is_ml_bfloat16(dtype):
        return _UINT, 16
    if dtype.kind not in kinds or dtype.byteorder == ">":
        raise Error(f"{who}: argument '{name}' has dtype {dtype}, which fuselab does not take "
                    f"(expected float32; the row pipelines also take float16, and bfloat16 as "
                    f"uint16 bits or ml_dtypes.bfloat16)")
    return kinds[dtype.kind], dtype.itemsize * 8


# torch dtype -> (type_code, bits), filled once torch is seen. torch.bfloat16 is its bits, uint16:
# what every bfloat16 variant takes (the same bytes, read in place).
TORCH_TYPES = {}
TORCH_STORAGE = {}  # torch dtype -> storage type name: float32, float16, bfloat16


def _torch_types():
    if not TORCH_TYPES:
        import torch

        TORCH_TYPES.update({
            torch.float32: (_FLOAT, 32), torch.float64: (_FLOAT, 64), torch.float16: (_FLOAT, 16),
            torch.bfloat16: (_UINT, 16), torch.int32: (_INT, 32), torch.int64: (_INT, 64),
            torch.int16: (_INT, 16), torch.int8: (_INT, 8), torch.uint8: (_UINT, 8),
            torch.bool: (_UINT, 8)})
        TORCH_STORAGE.update({torch.float32: "float32", torch.float16: "float16",
                              torch.bfloat16: "bfloat16"})
    return TORCH_TYPES


# (type_code, bits) of each storage type, and back (fuselab_c.h).
STORAGE_TYPES = {"float32": (_FLOAT, 32), "float16": (_FLOAT, 16), "bfloat16": (_UINT, 16)}
STORAGE_OF = {v: k for k, v in STORAGE_TYPES.items()}


def storage_name(obj):
    """The storage type an array or tensor holds, in words ("float32", "bfloat16" for a
    torch.bfloat16 tensor, an ml_dtypes.bfloat16 array or a numpy uint16 array of its bits,
    "float16"), else its own dtype's name; for messages."""
    dt = getattr(obj, "dtype", None)
    if dt is None:
        return type(obj).__name__
    if _is_torch(obj):
        _torch_types()
        return TORCH_STORAGE.get(dt, str(dt).replace("torch.", ""))
    if _is_numpy(obj):
        if is_ml_bfloat16(dt):
            return "bfloat16"
        if dt == "uint16":
            return "uint16 (bfloat16 bits)"
        return str(dt)
    return str(dt)


def _torch_type(dtype, who, name):
    t = _torch_types().get(dtype)
    if t is None:
        raise Error(f"{who}: argument '{name}' has dtype {dtype}, which fuselab does not take "
                    f"(expected torch.float32)")
    return t


# ---- one argument: (data, meta), meta = (device, shape, strides in elements, type_code, bits) ----

_c_char = ctypes.c_char
_addressof = ctypes.addressof
_NUMPY_META = {}  # (shape, byte strides, dtype) -> meta: the same object while the key recurs


def _numpy_meta(obj, who, name):
    shape, strides, dtype = obj.shape, obj.strides, obj.dtype
    code, bits = _numpy_type(dtype, who, name)
    if any(s % obj.itemsize for s in strides):
        raise Error(f"{who}: argument '{name}' has strides {strides} that are not whole "
                    f"elements")
    meta = (0, shape, tuple(s // obj.itemsize for s in strides), code, bits)
    if len(_NUMPY_META) > 4096:
        _NUMPY_META.clear()
    _NUMPY_META[(shape, strides, dtype)] = meta
    return meta


def _data_field_offset():
    """Where CPython's numpy array object keeps its data pointer (PyArrayObject_fields.data,
    just past PyObject_HEAD: id() is the object's address), checked against .ctypes.data on
    arrays and views; None where that does not hold (another interpreter or layout)."""
    np = sys.modules.get("numpy")
    if np is None:
        return None
    offset = 2 * ctypes.sizeof(ctypes.c_void_p)
    try:
        base = np.zeros((3, 5), np.float32)
        for a in (base, base[1], base[:, 2:], base.T, np.zeros(0, np.uint8)):
            if (ctypes.c_void_p.from_address(id(a) + offset).value or 0) != a.ctypes.data:
                return None
    except Exception:
        return None
    return offset


from_address = ctypes.c_void_p.from_address
NUMPY_DATA = []  # [the offset of _data_field_offset, or None], found when numpy is first seen


def numpy_data(obj, who, name, writable):
    """The address of a numpy array's first element (what .ctypes.data says, 10x faster)."""
    if writable and not obj.flags.writeable:
        raise Error(f"{who}: output '{name}' is a read-only array")
    if not NUMPY_DATA:
        NUMPY_DATA.append(_data_field_offset())
    if NUMPY_DATA[0] is None:
        return obj.ctypes.data
    return from_address(id(obj) + NUMPY_DATA[0]).value or 0


def _numpy_values(obj, who, name, writable, keep):
    meta = _NUMPY_META.get((obj.shape, obj.strides, obj.dtype)) or _numpy_meta(obj, who, name)
    return numpy_data(obj, who, name, writable), meta


def torch_meta(obj, who, name):
    t = TORCH_TYPES.get(obj.dtype)
    if t is None:
        t = _torch_type(obj.dtype, who, name)
    if obj.is_cuda:
        if obj.get_device() != 0:
            raise Error(f"{who}: argument '{name}' is on {obj.device}; fuselab runs on cuda:0")
        device = 1
    elif obj.is_cpu:
        device = 0
    else:
        raise Error(f"{who}: argument '{name}' is on {obj.device}; fuselab takes CPU or CUDA "
                    f"tensors")
    return (device, obj.shape, obj.stride(), t[0], t[1])


def _torch_values(obj, who, name, writable, keep):
    return obj.data_ptr(), torch_meta(obj, who, name)


def _dlpack_values(obj, who, name, writable, keep):
    if not hasattr(obj, "__dlpack__"):
        raise Error(f"{who}: argument '{name}' is a {type(obj).__name__}; fuselab takes numpy "
                    f"arrays, torch tensors or objects with __dlpack__")
    a = _describe_dlpack(obj, who, name, keep)
    return (a.data or 0, (a.device, tuple(a.shape[i] for i in range(a.ndim)),
                          tuple(a.strides[i] for i in range(a.ndim)), a.type_code, a.bits))


_HANDLERS = {}  # type -> its values function


class _Never:
    """Stands for numpy.ndarray or torch.Tensor in FAST until one is seen."""


FAST = [_Never, _Never]  # the exact types Kernel describes inline: numpy.ndarray, torch.Tensor
_F32 = [None, None]  # numpy.empty, torch.float32: allocate_like's, set with FAST


def _handler(cls):
    np = sys.modules.get("numpy")
    torch = sys.modules.get("torch")
    if np is not None and issubclass(cls, np.ndarray):
        h = _numpy_values
        if not NUMPY_DATA:
            NUMPY_DATA.append(_data_field_offset())
        _F32[0] = np.empty
        FAST[0] = np.ndarray
    elif torch is not None and issubclass(cls, torch.Tensor):
        _torch_types()
        h = _torch_values
        _F32[1] = torch.float32
        FAST[1] = torch.Tensor
    elif cls.__module__.startswith("torch") and hasattr(cls, "data_ptr"):
        _torch_types()
        h = _torch_values
    else:
        return _dlpack_values  # not cached: a class may gain numpy or torch later
    _HANDLERS[cls] = h
    return h


def values(obj, who, name, writable, keep):
    """(data, meta) of `obj`, meta = (device, shape, strides in elements, type_code, bits);
    references that must outlive the call (DLPack capsules) are appended to `keep`."""
    h = _HANDLERS.get(type(obj)) or _handler(type(obj))
    return h(obj, who, name, writable, keep)


def describe(obj, who, name, writable, keep):
    """A fuselab_arg for `obj`; references that must outlive the call are appended to `keep`."""
    data, (device, shape, strides, code, bits) = values(obj, who, name, writable, keep)
    keep.append(obj)
    return _arg(name, data, device, shape, strides, code, bits, keep)


class _DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int), ("device_id", ctypes.c_int)]


class _DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class _DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device", _DLDevice), ("ndim", ctypes.c_int),
                ("dtype", _DLDataType), ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)), ("byte_offset", ctypes.c_uint64)]


_get_pointer = ctypes.pythonapi.PyCapsule_GetPointer
_get_pointer.restype = ctypes.c_void_p
_get_pointer.argtypes = [ctypes.py_object, ctypes.c_char_p]


def _describe_dlpack(obj, who, name, keep):
    device_type, device_id = obj.__dlpack_device__()
    if device_type == _DL_CUDA:
        if device_id != 0:
            raise Error(f"{who}: argument '{name}' is on CUDA device {device_id}; fuselab runs on "
                        f"device 0")
        capsule = obj.__dlpack__(stream=1)  # ordered before work on the legacy default stream
    elif device_type in (_DL_CPU, _DL_CUDA_HOST):
        capsule = obj.__dlpack__()
    else:
        raise Error(f"{who}: argument '{name}' is on DLPack device type {device_type}; fuselab "
                    f"takes host or CUDA memory")
    keep += [obj, capsule]  # the capsule, not consumed, frees the tensor's view when collected
    t = _DLTensor.from_address(_get_pointer(capsule, b"dltensor"))
    if t.dtype.lanes != 1 or t.dtype.code not in (0, 1, 2, 4):
        raise Error(f"{who}: argument '{name}' has a DLPack dtype fuselab does not take "
                    f"(expected float32)")
    shape = [t.shape[i] for i in range(t.ndim)]
    if t.strides:
        strides = [t.strides[i] for i in range(t.ndim)]
    else:  # compact, C order
        strides, step = [0] * t.ndim, 1
        for i in reversed(range(t.ndim)):
            strides[i], step = step, step * shape[i]
    code = {0: _INT, 1: _UINT, 2: _FLOAT, 4: _UINT}[t.dtype.code]  # bfloat16: its bits
    return _arg(name, (t.data or 0) + t.byte_offset, 1 if device_type == _DL_CUDA else 0, shape,
                strides, code, t.dtype.bits, keep)


# ---- the argument block ------------------------------------------------------------------------

_ARG_FORMAT = "QQiiQQii"  # fuselab_arg: name, data, device, ndim, shape, strides, type_code, bits
_ARG_SIZE = struct.calcsize("=" + _ARG_FORMAT)
_DIMS_SIZE = 2 * MAX_DIMS * 8  # one argument's shape, then its strides
assert _ARG_SIZE == ctypes.sizeof(_lib.Arg), "fuselab_arg's layout changed"


class _Block:
    """One thread's argument block of a Slots."""
    __slots__ = ("buf", "base", "err", "words", "fixed", "metas", "empty")


class Slots:
    """The fuselab_arg array of one argument list (its names in a fixed order), refilled per call:
    per thread (a call releases the GIL while the runtime reads it), one buffer holding the
    fuselab_arg structs, every argument's shape and strides, and the error message's room.
    fill() rewrites only the data pointers while the arguments' metadata is what the thread's
    last call had (one struct.pack_into of the whole block otherwise), and returns (address of
    the args, address of the error message, whether any argument has a zero extent)."""

    def __init__(self, names):
        self.names = tuple(names)
        self.n = len(self.names)
        self._name_bytes = [ctypes.create_string_buffer(n.encode()) for n in self.names]
        self._local = threading.local()
        self._structs = {}  # ranks, as one int -> struct.Struct of the whole block
        self._dims_at = self.n * _ARG_SIZE
        self._err_at = self._dims_at + self.n * _DIMS_SIZE
        self._size = self._err_at + _lib.ERR_LEN
        self._data_words = tuple(i * _ARG_SIZE // 8 + 1 for i in range(self.n))

    def _block(self):
        b = _Block()
        b.buf = ctypes.create_string_buffer(self._size)
        b.base = ctypes.addressof(b.buf)
        b.err = b.base + self._err_at
        b.words = memoryview(b.buf).cast("B").cast("Q")
        b.fixed = tuple((ctypes.addressof(self._name_bytes[i]),
                         b.base + self._dims_at + i * _DIMS_SIZE,
                         b.base + self._dims_at + i * _DIMS_SIZE + MAX_DIMS * 8)
                        for i in range(self.n))
        b.metas = None
        b.empty = False
        self._local.block = b
        return b

    def _struct(self, ranks):
        key = tuple(ranks)
        s = self._structs.get(key)
        if s is None:
            s = self._structs[key] = struct.Struct("=" + _ARG_FORMAT * self.n + "".join(
                f"{r}q{MAX_DIMS * 8 - r * 8}x{r}q{MAX_DIMS * 8 - r * 8}x" for r in ranks))
        return s

    def _pack(self, b, metas):
        head = []
        dims = []
        ranks = []
        for (name, shape_at, strides_at), (device, shape, strides, code, bits) in zip(
                b.fixed, metas):
            ndim = len(shape)
            head += (name, 0, device, ndim, shape_at, strides_at, code, bits)
            if ndim > MAX_DIMS:  # refused by the runtime before it reads the shape
                shape, strides, ndim = shape[:MAX_DIMS], strides[:MAX_DIMS], MAX_DIMS
            dims += shape
            dims += strides
            ranks.append(ndim)
        b.metas = None
        try:
            self._struct(ranks).pack_into(b.buf, 0, *head, *dims)
        except struct.error as e:  # a value that is no int64 (a symbolic size, a huge extent)
            raise Error(f"cannot describe the arguments {', '.join(self.names)}: {e}") from None
        # Found only where the metadata changed: the runtime refuses zero extents, so the caller
        # answers such a call itself (_kernel's _empty_call).
        b.empty = any(0 in m[1] for m in metas)
        b.metas = metas

    def fill(self, datas, metas):
        """Writes this thread's block: `datas` the arguments' addresses, `metas` their
        (device, shape, strides, type_code, bits), in self.names' order."""
        try:
            b = self._local.block
        except AttributeError:
            b = self._block()
        if metas != b.metas:
            self._pack(b, metas)
        words = b.words
        for i, data in zip(self._data_words, datas):
            words[i] = data
        return b.base, b.err, b.empty


_NUMPY_STORAGE = {}  # numpy dtype -> whether an output is allocated in it (a storage type)


def _numpy_storage(dt):
    ok = _NUMPY_STORAGE.get(dt)
    if ok is None:
        ok = _NUMPY_STORAGE[dt] = (dt.byteorder != ">" and dt.name in (
            "float32", "float16", "uint16")) or is_ml_bfloat16(dt)
    return ok


def allocate_like(first, shape, who, name):
    """An output of this shape: the same kind of object as `first`, on its device, of `first`'s
    element type where that is a storage type (float32, float16, bfloat16: torch.bfloat16, numpy
    uint16 bits or ml_dtypes.bfloat16), as the row pipelines' outputs are; else float32, every
    other pipeline's type (the runtime then refuses the input's type, naming the variant)."""
    cls = type(first)
    if cls is FAST[1]:  # a torch.Tensor: new_empty keeps its device (half torch.empty's cost)
        f32 = _F32[1]
        dt = first.dtype
        if dt is f32 or dt in TORCH_STORAGE:
            return first.new_empty(shape)
        return first.new_empty(shape, dtype=f32)
    if cls is FAST[0]:
        dt = first.dtype
        return _F32[0](shape, dt if _numpy_storage(dt) else "float32")
    if _is_numpy(first):
        import numpy as np

        return np.empty(shape, dtype=first.dtype if _numpy_storage(first.dtype) else np.float32)
    if _is_torch(first):
        import torch

        _torch_types()
        return first.new_empty(shape, dtype=first.dtype if first.dtype in TORCH_STORAGE
                               else torch.float32)
    xp = getattr(first, "__array_namespace__", None)
    if xp is not None:
        ns = xp()
        return ns.empty(shape, dtype=ns.float32, device=getattr(first, "device", None))
    raise Error(f"{who}: cannot allocate output '{name}' like a {type(first).__name__}; pass it "
                f"by name")


def _raw_stream(torch, device):
    raw = getattr(torch._C, "_cuda_getCurrentRawStream", None)  # what inductor's kernels use
    if raw is not None:
        return raw(device.index or 0) or None
    return torch.cuda.current_stream(device).cuda_stream or None


def stream_of(stream, arrays):
    """The CUstream to run on: the one given, else PyTorch's current stream where a CUDA tensor
    is among the arrays, else 0 (the legacy default stream)."""
    if stream is not None:
        return getattr(stream, "cuda_stream", stream) or None
    for a in arrays:
        if _is_torch(a) and a.is_cuda:
            import torch

            return _raw_stream(torch, a.device)
    return None
