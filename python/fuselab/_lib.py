"""Loading libfuselab.so and its C ABI (../fuselab_c.h) through ctypes."""
import ctypes
import json
import os

_ERR_LEN = 4096


class Error(RuntimeError):
    """A fuselab failure: the runtime's message, naming the variant and the problem."""


class Arg(ctypes.Structure):
    _fields_ = [
        ("name", ctypes.c_char_p),
        ("data", ctypes.c_void_p),
        ("device", ctypes.c_int32),
        ("ndim", ctypes.c_int32),
        ("shape", ctypes.POINTER(ctypes.c_int64)),
        ("strides", ctypes.POINTER(ctypes.c_int64)),
        ("type_code", ctypes.c_int32),
        ("bits", ctypes.c_int32),
    ]


def _candidates():
    env = os.environ.get("FUSELAB_LIBRARY")
    if env:
        yield env
    here = os.path.dirname(os.path.abspath(__file__))
    yield os.path.join(here, "libfuselab.so")  # the build copies it here
    root = os.path.dirname(os.path.dirname(here))
    build = os.environ.get("FUSELAB_BUILD_DIR", os.path.join(root, "build"))
    yield os.path.join(build, "python", "libfuselab.so")


def _load():
    tried = []
    for path in _candidates():
        if not os.path.exists(path):
            tried.append(f"{path} (absent)")
            continue
        try:
            lib = ctypes.CDLL(path)
        except OSError as e:
            tried.append(f"{path} ({e})")
            continue
        lib.fuselab_info.restype = ctypes.c_char_p
        lib.fuselab_info.argtypes = []
        lib.fuselab_invoke.restype = ctypes.c_int
        lib.fuselab_invoke.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.POINTER(Arg),
                                       ctypes.c_void_p, ctypes.c_char_p, ctypes.c_size_t]
        lib.fuselab_output_shapes.restype = ctypes.c_int
        lib.fuselab_output_shapes.argtypes = [ctypes.c_char_p, ctypes.c_int, ctypes.POINTER(Arg),
                                              ctypes.c_char_p, ctypes.c_size_t, ctypes.c_char_p,
                                              ctypes.c_size_t]
        return lib, path
    raise ImportError("fuselab: cannot load libfuselab.so; tried " + "; ".join(tried) +
                      ". Build the project (./fuselab build) or set FUSELAB_LIBRARY.")


LIB, LIBRARY_PATH = _load()
_INFO = json.loads(LIB.fuselab_info().decode())


def info():
    return _INFO


def invoke(index, args, stream):
    """Runs variant `index` on a ctypes array of Arg; raises Error with the runtime's message."""
    err = ctypes.create_string_buffer(_ERR_LEN)
    if LIB.fuselab_invoke(index, len(args), args, stream, err, _ERR_LEN) != 0:
        raise Error(err.value.decode(errors="replace"))


def output_shapes(pipeline, args):
    """{output name: numpy-order shape} for inputs described by a ctypes array of Arg."""
    err = ctypes.create_string_buffer(_ERR_LEN)
    out = ctypes.create_string_buffer(_ERR_LEN)
    if LIB.fuselab_output_shapes(pipeline.encode(), len(args), args, out, _ERR_LEN, err,
                                 _ERR_LEN) != 0:
        raise Error(err.value.decode(errors="replace"))
    return {k: tuple(v) for k, v in json.loads(out.value.decode()).items()}
