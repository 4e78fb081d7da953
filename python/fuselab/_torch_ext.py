"""The torch ops' C++ kernels (_torch_ops.cpp): compiled with torch.utils.cpp_extension on first
use and loaded with torch.ops.load_library, or the reason they cannot be. The same library is
imported as a CPython module too (PY_ENTRY): fuselab.kernel's per-call entry on torch tensors.

The build is cached per (source, torch version, compiler ABI) under $FUSELAB_TORCH_EXT_DIR, else
$XDG_CACHE_HOME/fuselab/torch_ext (~/.cache/...); torch's own lock keeps processes that start
at once from building it twice. FUSELAB_TORCH_EXT=0 skips it (the Python kernels then run: the
fallback, with its one warning)."""
import ctypes
import hashlib
import os
import threading

from . import _lib

SOURCE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_torch_ops.cpp")


def _cache_dir(torch, tag):
    root = os.environ.get("FUSELAB_TORCH_EXT_DIR")
    if not root:
        base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        root = os.path.join(base, "fuselab", "torch_ext")
    path = os.path.join(root, tag)
    os.makedirs(path, exist_ok=True)
    return path


_LOCK = threading.Lock()
_LOADED = []  # [(ext, why)] once tried
# The same library as a CPython module (its invoke and invoke_decided: fuselab.kernel's per-call
# entry without torch's op binding), or None where it was built without Python's headers.
PY_ENTRY = [None]


def get(torch):
    """(torch.ops.fuselab_ext, None) with init() done, or (None, why it is not there): built
    and loaded on the first call in a process, kept for the next."""
    with _LOCK:
        if not _LOADED:
            _LOADED.append(_load(torch))
        return _LOADED[0]


def _load(torch):
    if os.environ.get("FUSELAB_TORCH_EXT", "1") == "0":
        return None, "FUSELAB_TORCH_EXT=0 is set"
    try:
        from torch.utils import cpp_extension
    except ImportError as e:
        return None, f"torch.utils.cpp_extension cannot be imported ({e})"
    with open(SOURCE, "rb") as f:
        source = f.read()
    with open(os.path.join(os.path.dirname(SOURCE), "fuselab_c.h"), "rb") as f:
        header = f.read()
    abi = int(getattr(torch._C, "_GLIBCXX_USE_CXX11_ABI", 1))
    digest = hashlib.sha256(source + header + torch.__version__.encode() + bytes([abi]))
    tag = f"torch{torch.__version__.replace('+', '_')}-{digest.hexdigest()[:16]}"
    try:
        build = _cache_dir(torch, tag)
        path = cpp_extension.load(
            name="fuselab_torch_ops", sources=[SOURCE],
            extra_include_paths=[os.path.dirname(SOURCE)],
            extra_cflags=["-O2", "-std=c++17"], build_directory=build,
            is_python_module=False, verbose=False)
        if isinstance(path, str):  # torch returns the library's path without loading it
            torch.ops.load_library(path)
        else:
            path = os.path.join(build, "fuselab_torch_ops.so")
    except Exception as e:  # no compiler, no ninja, a torch without headers, a read-only cache
        lines = [line for line in str(e).splitlines() if line.strip()]
        said = [line for line in lines if "error" in line.lower()] or lines
        return None, f"building {os.path.basename(SOURCE)} failed: {' '.join(said[-3:])[-600:]}"
    ext = torch.ops.fuselab_ext
    lib = _lib.LIB
    ext.init(ctypes.cast(lib.fuselab_invoke, ctypes.c_void_p).value,
             ctypes.cast(lib.fuselab_output_shapes, ctypes.c_void_p).value)
    PY_ENTRY[0] = _py_entry(path)
    return ext, None


def _py_entry(path):
    """The loaded library's CPython module (PyInit_fuselab_torch_ops), or None: the ops then serve
    fuselab.kernel, about 1.5 us a call slower."""
    import importlib.machinery
    import importlib.util

    try:
        loader = importlib.machinery.ExtensionFileLoader("fuselab_torch_ops", path)
        spec = importlib.util.spec_from_file_location("fuselab_torch_ops", path, loader=loader)
        module = importlib.util.module_from_spec(spec)
        loader.exec_module(module)
        return module if hasattr(module, "call_decided") else None
    except Exception:  # built without Python's headers: no PyInit
        return None
