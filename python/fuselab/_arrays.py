"""Describing the caller's arrays to the C ABI without copying them: numpy arrays, torch tensors
(by data_ptr and strides, as PyTorch's Halide backend does) and any object with __dlpack__."""
import ctypes
import sys

from . import _lib
from ._lib import Error

# halide_type_code_t
_INT, _UINT, _FLOAT, _BFLOAT = 0, 1, 2, 4
_DL_CPU, _DL_CUDA, _DL_CUDA_HOST = 1, 2, 3


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


def _numpy_type(dtype, who, name):
    kinds = {"f": _FLOAT, "i": _INT, "u": _UINT, "b": _UINT}
    if dtype.kind not in kinds or dtype.byteorder == ">":
        raise Error(f"{who}: argument '{name}' has dtype {dtype}, which fuselab does not take "
                    f"(expected float32)")
    return kinds[dtype.kind], dtype.itemsize * 8


def _torch_type(dtype, who, name):
    import torch

    table = {torch.float32: (_FLOAT, 32), torch.float64: (_FLOAT, 64), torch.float16: (_FLOAT, 16),
             torch.bfloat16: (_BFLOAT, 16), torch.int32: (_INT, 32), torch.int64: (_INT, 64),
             torch.int16: (_INT, 16), torch.int8: (_INT, 8), torch.uint8: (_UINT, 8),
             torch.bool: (_UINT, 8)}
    if dtype not in table:
        raise Error(f"{who}: argument '{name}' has dtype {dtype}, which fuselab does not take "
                    f"(expected torch.float32)")
    return table[dtype]


def describe(obj, who, name, writable, keep):
    """A fuselab_arg for `obj`; references that must outlive the call are appended to `keep`."""
    if _is_numpy(obj):
        code, bits = _numpy_type(obj.dtype, who, name)
        if writable and not obj.flags.writeable:
            raise Error(f"{who}: output '{name}' is a read-only array")
        if any(s % obj.itemsize for s in obj.strides):
            raise Error(f"{who}: argument '{name}' has strides {obj.strides} that are not whole "
                        f"elements")
        keep.append(obj)
        return _arg(name, obj.ctypes.data, 0, obj.shape, [s // obj.itemsize for s in obj.strides],
                    code, bits, keep)
    if _is_torch(obj):
        code, bits = _torch_type(obj.dtype, who, name)
        if obj.device.type == "cuda":
            if obj.device.index not in (None, 0):
                raise Error(f"{who}: argument '{name}' is on {obj.device}; fuselab runs on "
                            f"cuda:0")
            device = 1
        elif obj.device.type == "cpu":
            device = 0
        else:
            raise Error(f"{who}: argument '{name}' is on {obj.device}; fuselab takes CPU or CUDA "
                        f"tensors")
        keep.append(obj)
        return _arg(name, obj.data_ptr(), device, tuple(obj.shape), obj.stride(), code, bits, keep)
    if hasattr(obj, "__dlpack__"):
        return _describe_dlpack(obj, who, name, keep)
    raise Error(f"{who}: argument '{name}' is a {type(obj).__name__}; fuselab takes numpy arrays, "
                f"torch tensors or objects with __dlpack__")


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
    code = {0: _INT, 1: _UINT, 2: _FLOAT, 4: _BFLOAT}[t.dtype.code]
    return _arg(name, (t.data or 0) + t.byte_offset, 1 if device_type == _DL_CUDA else 0, shape,
                strides, code, t.dtype.bits, keep)


def allocate_like(first, shape, who, name):
    """A float32 output of this shape: the same kind of object as `first`, on its device."""
    if _is_numpy(first):
        import numpy as np

        return np.empty(shape, dtype=np.float32)
    if _is_torch(first):
        import torch

        return torch.empty(shape, dtype=torch.float32, device=first.device)
    xp = getattr(first, "__array_namespace__", None)
    if xp is not None:
        ns = xp()
        return ns.empty(shape, dtype=ns.float32, device=getattr(first, "device", None))
    raise Error(f"{who}: cannot allocate output '{name}' like a {type(first).__name__}; pass it "
                f"by name")


def stream_of(stream, arrays):
    """The CUstream to run on: the one given, else PyTorch's current stream where a CUDA tensor
    is among the arrays, else 0 (the legacy default stream)."""
    if stream is not None:
        return getattr(stream, "cuda_stream", stream) or None
    for a in arrays:
        if _is_torch(a) and a.device.type == "cuda":
            import torch

            return torch.cuda.current_stream(a.device).cuda_stream or None
    return None
