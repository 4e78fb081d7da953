"""Loading libfuselab.so and its C ABI (fuselab_c.h) through ctypes."""
import ctypes
import json
import os

_ERR_LEN = 4096
ERR_LEN = _ERR_LEN


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
        # Pointers travel as plain integers (c_void_p): the argument blocks of _arrays.Slots are
        # addresses, and a ctypes array of Arg converts to c_void_p as well.
        lib.fuselab_info.restype = ctypes.c_char_p
        lib.fuselab_info.argtypes = []
        lib.fuselab_invoke.restype = ctypes.c_int
        lib.fuselab_invoke.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.c_void_p,
                                       ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t]
        lib.fuselab_output_shapes.restype = ctypes.c_int
        lib.fuselab_output_shapes.argtypes = [ctypes.c_char_p, ctypes.c_int, ctypes.c_void_p,
                                              ctypes.c_char_p, ctypes.c_size_t, ctypes.c_char_p,
                                              ctypes.c_size_t]
        if hasattr(lib, "fuselab_find_variant"):  # a library built before the storage types lacks it
            lib.fuselab_find_variant.restype = ctypes.c_int
            lib.fuselab_find_variant.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p,
                                                 ctypes.c_char_p, ctypes.c_char_p, ctypes.c_size_t]
        if hasattr(lib, "fuselab_choose"):  # a library built before choose.h lacks it
            lib.fuselab_choose.restype = ctypes.c_int
            lib.fuselab_choose.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_int,
                                           ctypes.c_void_p, ctypes.c_int, ctypes.c_char_p,
                                           ctypes.c_size_t, ctypes.c_char_p, ctypes.c_size_t]
        return lib, path
    raise ImportError("fuselab: cannot load libfuselab.so; tried " + "; ".join(tried) +
                      ". Build the project (./fuselab build) or set FUSELAB_LIBRARY.")


LIB, LIBRARY_PATH = _load()
_INFO = json.loads(LIB.fuselab_info().decode())
# The storage types (fuselab_c.h): a library built before them has float32 variants only.
DTYPES = tuple(_INFO.get("dtypes", ("float32", "bfloat16", "float16")))
for _v in _INFO["variants"]:
    _v.setdefault("dtype", "float32")
    _v.setdefault("name", f"{_v['pipeline']}/{_v['schedule']}/{_v['target']}" +
                  ("" if _v["dtype"] == "float32" else f"/{_v['dtype']}"))
# fuselab_invoke(index, nargs, args, stream, err, err_len) -> 0 or 1, for the per-call path.
INVOKE = LIB.fuselab_invoke


def info():
    return _INFO


def message(err_address):
    """The runtime's message in the error buffer at this address."""
    return ctypes.string_at(err_address).decode(errors="replace")


def invoke(index, args, stream):
    """Runs variant `index` on a ctypes array of Arg; raises Error with the runtime's message."""
    err = ctypes.create_string_buffer(_ERR_LEN)
    if LIB.fuselab_invoke(index, len(args), args, stream, err, _ERR_LEN) != 0:
        raise Error(err.value.decode(errors="replace"))


def output_shapes(pipeline, args, nargs=None):
    """{output name: numpy-order shape} for inputs described by a ctypes array of Arg (or the
    address of `nargs` of them)."""
    err = ctypes.create_string_buffer(_ERR_LEN)
    out = ctypes.create_string_buffer(_ERR_LEN)
    n = len(args) if nargs is None else nargs
    if LIB.fuselab_output_shapes(pipeline.encode(), n, args, out, _ERR_LEN, err, _ERR_LEN) != 0:
        raise Error(err.value.decode(errors="replace"))
    return {k: tuple(v) for k, v in json.loads(out.value.decode()).items()}


def find_variant(pipeline, schedule, target, dtype):
    """fuselab_find_variant: the index of (pipeline, schedule, target, dtype), or Error with the
    runtime's message saying what exists; None where the library lacks the function."""
    if not hasattr(LIB, "fuselab_find_variant"):
        return None
    err = ctypes.create_string_buffer(_ERR_LEN)
    index = LIB.fuselab_find_variant(pipeline.encode(), schedule.encode(), target.encode(),
                                     dtype.encode(), err, _ERR_LEN)
    if index < 0:
        raise Error(err.value.decode(errors="replace"))
    return index


def choose(pipeline, target, nargs, args, tune):
    """fuselab_choose: {"index", "variant", "schedule", "source", "reason"} for the `nargs`
    arguments at address (or ctypes array) `args`; raises Error with the runtime's message."""
    if not hasattr(LIB, "fuselab_choose"):
        raise Error(f"{pipeline}: this libfuselab.so ({LIBRARY_PATH}) has no fuselab_choose; "
                    f"rebuild it, or name a strategy")
    err = ctypes.create_string_buffer(_ERR_LEN)
    out = ctypes.create_string_buffer(_ERR_LEN)
    if LIB.fuselab_choose(pipeline.encode(), target.encode(), nargs, args, 1 if tune else 0, out,
                          _ERR_LEN, err, _ERR_LEN) != 0:
        raise Error(err.value.decode(errors="replace"))
    return json.loads(out.value.decode())
